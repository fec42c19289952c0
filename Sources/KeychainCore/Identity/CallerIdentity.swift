import Foundation

/// Who is calling: an application identifier and the ordered access groups it may use.
///
/// Order follows Apple: `keychain-access-groups`, then `application-identifier`, then application groups;
/// an add without an access group uses the first.
public struct CallerIdentity: Sendable, Hashable {
    /// The application identifier (`TEAMID.bundle.id`, or `LOCAL.name` for a program without entitlements).
    public let applicationIdentifier: String?
    /// Every access group the caller may read and write, in order.
    public let accessGroups: [String]
    /// Whether the system authenticated the caller as the keychain's owner (keychaind's owner rights, as Keychain
    /// Access on a Mac): its searches, updates and deletes cover every group, it may name any group (its adds
    /// without one still go to the first of `accessGroups`), and its passcode attempts are counted apart from the
    /// apps' (``PasscodeAttempter``).
    public let isOwner: Bool
    /// The access group of external tokens' items (`kSecAttrAccessGroupToken`): every app may search it, none
    /// may write to it.
    public static let tokenAccessGroup = "com.apple.token"

    /// An identity with the given groups, in order, duplicates removed.
    public init(applicationIdentifier: String?, accessGroups: [String], isOwner: Bool = false) {
        self.applicationIdentifier = applicationIdentifier
        var seen = Set<String>()
        self.accessGroups = accessGroups.filter { seen.insert($0).inserted }
        self.isOwner = isOwner
    }

    /// The identity of a program with no entitlements file: `LOCAL.` followed by its bundle identifier
    /// (from an Info.plist beside the executable) or else its executable's name, which is its one group.
    public static func localProgram(bundleIdentifier: String?, executableName: String) -> CallerIdentity {
        let identifier = "LOCAL." + (bundleIdentifier ?? executableName)
        return CallerIdentity(applicationIdentifier: identifier, accessGroups: [identifier])
    }

    /// Reads an entitlements property list (the `.entitlements` file of an Apple project).
    /// `$(AppIdentifierPrefix)` and `$(TeamIdentifierPrefix)` are expanded with the team identifier.
    /// - Throws: `KeychainError.param` when the file is not a readable property list.
    public static func entitlements(at url: URL) throws -> CallerIdentity {
        guard let bytes = try? Data(contentsOf: url) else {
            throw KeychainError.param.because("cannot read entitlements file \(url.path)")
        }
        return try entitlements(bytes, source: url.path)
    }

    /// Parses entitlements from property-list bytes.
    public static func entitlements(_ bytes: Data, source: String = "entitlements") throws -> CallerIdentity {
        // Xcode writes entitlements as XML. Foundation's binary property-list reader on Linux crashes the process
        // on some damaged files (a set where a dictionary belongs), so only XML reaches Foundation.
        guard isXML(bytes) else {
            throw KeychainError.param.because(
                "\(source) is not an XML property list (a binary one can be converted with `plutil -convert xml1`)")
        }
        guard let plist = try? PropertyListSerialization.propertyList(from: bytes, format: nil) as? [String: Any] else {
            throw KeychainError.param.because("\(source) is not a property list dictionary")
        }
        let rawApplicationIdentifier = plist["application-identifier"] as? String
        let team =
            (plist["com.apple.developer.team-identifier"] as? String)
            ?? rawApplicationIdentifier.flatMap {
                $0.hasPrefix("$(") ? nil : $0.split(separator: ".").first.map(String.init)
            }
        func expand(_ group: String) -> String {
            guard let team else { return group }
            return group.replacingOccurrences(of: "$(AppIdentifierPrefix)", with: team + ".")
                .replacingOccurrences(of: "$(TeamIdentifierPrefix)", with: team + ".")
        }
        // Xcode writes the application identifier and macOS application groups with the same variables.
        let applicationIdentifier = rawApplicationIdentifier.map(expand)
        let keychainGroups = (plist["keychain-access-groups"] as? [String] ?? []).map(expand)
        let applicationGroups = (plist["com.apple.security.application-groups"] as? [String] ?? []).map(expand)
        return CallerIdentity(
            applicationIdentifier: applicationIdentifier,
            accessGroups: keychainGroups + (applicationIdentifier.map { [$0] } ?? []) + applicationGroups)
    }

    /// Whether `bytes` start like an XML document: `<` after an optional byte-order mark and white space.
    private static func isXML(_ bytes: Data) -> Bool {
        var rest = bytes[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        return rest.drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }.first == UInt8(ascii: "<")
    }
}
