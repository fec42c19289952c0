import Foundation
import KeychainCore

#if canImport(Glibc)
    import Glibc
#endif

/// The administrator's policy: every `*.plist` of a directory (`/etc/keychaind/apps.d`), read in name order.
/// A file counts only when it and its directory are owned by the policy's owner (root) and writable by no one
/// else; any other file, and any file that does not parse, is left out with a reason for the log.
///
/// A file is an XML property list dictionary: selectors (`Unit`, `FlatpakID`, `Snap`, `AppArmorLabel`,
/// `Executable`, `SHA256`), at least one, and `Entitlements`, a dictionary with `keychain-access-groups`,
/// `application-identifier` and `com.apple.security.application-groups` as in an app's entitlements file.
package struct PolicyDirectory: Sendable {
    package let rules: [PolicyRule]
    /// Files left out, each with its reason.
    package let problems: [String]

    package init(rules: [PolicyRule], problems: [String] = []) {
        self.rules = rules
        self.problems = problems
    }

    private static let selectorKeys: Set<String> = [
        "Unit", "FlatpakID", "Snap", "AppArmorLabel", "Executable", "SHA256",
    ]
    private static let otherKeys: Set<String> = ["Entitlements", "Comment"]

    /// Reads the directory `named` (through its real path); a missing directory is an empty policy.
    /// - Parameter owner: the uid that must own the files: root, except in tests (`--policy-owner`).
    package static func load(_ named: String, owner: UInt32 = 0) -> PolicyDirectory {
        var status = stat()
        guard lstat(named, &status) == 0 else { return PolicyDirectory(rules: []) }
        if let reason = untrusted(status, owner: owner, what: "the policy directory \(named)", isDirectory: true) {
            return PolicyDirectory(rules: [], problems: [reason])
        }
        // Read through the real path, whose every directory is checked: a link on the way, in a directory someone
        // else may write to, could be turned elsewhere between the check and the reads.
        guard let resolved = realpath(named, nil) else {
            return PolicyDirectory(rules: [], problems: ["the policy directory \(named) cannot be resolved"])
        }
        let directory = String(cString: resolved)
        free(resolved)
        // The real directory itself is checked as the one named was (a link on the way may name another).
        guard lstat(directory, &status) == 0 else {
            return PolicyDirectory(rules: [], problems: ["the policy directory \(directory) cannot be read"])
        }
        if let reason = untrusted(status, owner: owner, what: "the policy directory \(directory)", isDirectory: true)
            ?? untrustedAncestor(of: directory, owner: owner)
        {
            return PolicyDirectory(rules: [], problems: [reason])
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasSuffix(".plist") && !$0.hasPrefix(".") }.sorted()
        var rules: [PolicyRule] = []
        var problems: [String] = []
        for name in names {
            let path = directory + "/" + name
            switch readRule(path, owner: owner) {
            case .success(let rule): rules.append(rule)
            case .failure(let problem): problems.append("\(path) is ignored: \(problem.reason)")
            }
        }
        return PolicyDirectory(rules: rules, problems: problems)
    }

    private struct Problem: Error {
        let reason: String
    }

    private static func readRule(_ path: String, owner: UInt32) -> Result<PolicyRule, Problem> {
        // O_NOFOLLOW: a link in the directory could point at a file someone else controls.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            return .failure(Problem(reason: "cannot open it (\(String(cString: strerror(errno))))"))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(Problem(reason: "cannot stat it")) }
        if let reason = untrusted(status, owner: owner, what: "it", isDirectory: false) {
            return .failure(Problem(reason: reason))
        }
        guard status.st_size <= 1 << 20 else { return .failure(Problem(reason: "it is over 1 MiB")) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
        guard let bytes = try? handle.readToEnd() ?? Data() else { return .failure(Problem(reason: "cannot read it")) }
        return parse(bytes, source: path)
    }

    /// Why a file or directory with `status` is not trusted, or nil.
    private static func untrusted(_ status: stat, owner: UInt32, what: String, isDirectory: Bool) -> String? {
        let type = status.st_mode & S_IFMT
        if isDirectory ? type != S_IFDIR : type != S_IFREG {
            return "\(what) is not a \(isDirectory ? "directory" : "regular file")"
        }
        if status.st_uid != owner { return "\(what) is owned by uid \(status.st_uid), not \(owner)" }
        if status.st_mode & 0o022 != 0 { return "\(what) is writable by group or others" }
        return nil
    }

    /// Why a directory above `directory` (a real path) could let someone else swap the policy, or nil: each must
    /// belong to the policy's owner or root and be writable by no one else, unless it is sticky (as /tmp), where
    /// no one else may rename or remove the entry below it, which the walk has already found to be the owner's.
    private static func untrustedAncestor(of directory: String, owner: UInt32) -> String? {
        var current = directory
        while current != "/" {
            guard let slash = current.lastIndex(of: "/") else { return nil }
            current = slash == current.startIndex ? "/" : String(current[..<slash])
            var status = stat()
            guard lstat(current, &status) == 0 else { return "\(current), above the policy, cannot be read" }
            if status.st_uid != owner && status.st_uid != 0 {
                return "\(current), above the policy, is owned by uid \(status.st_uid)"
            }
            if status.st_mode & 0o022 != 0 && status.st_mode & S_ISVTX == 0 {
                return "\(current), above the policy, is writable by group or others"
            }
        }
        return nil
    }

    private static func parse(_ bytes: Data, source: String) -> Result<PolicyRule, Problem> {
        // Only XML reaches Foundation's reader (its binary reader can crash on damaged files; CallerIdentity says so).
        let start = bytes.drop { [0xEF, 0xBB, 0xBF, 0x20, 0x09, 0x0A, 0x0D].contains($0) }
        guard start.first == UInt8(ascii: "<"),
            let plist = try? PropertyListSerialization.propertyList(from: bytes, format: nil) as? [String: Any]
        else { return .failure(Problem(reason: "it is not an XML property list dictionary")) }
        let unknown = Set(plist.keys).subtracting(selectorKeys).subtracting(otherKeys)
        guard unknown.isEmpty else {
            return .failure(Problem(reason: "unknown keys \(unknown.sorted().joined(separator: ", "))"))
        }
        for key in selectorKeys where plist[key] != nil && !(plist[key] is String) {
            return .failure(Problem(reason: "\(key) is not a string"))
        }
        var digest: [UInt8]?
        if let hex = plist["SHA256"] as? String {
            guard let parsed = Self.bytes(hexadecimal: hex), parsed.count == 32 else {
                return .failure(Problem(reason: "SHA256 is not 64 hexadecimal digits"))
            }
            guard plist["Executable"] != nil else { return .failure(Problem(reason: "SHA256 needs an Executable")) }
            digest = parsed
        }
        if let path = plist["Executable"] as? String, !path.hasPrefix("/") {
            return .failure(Problem(reason: "Executable is not an absolute path"))
        }
        guard let entitlements = plist["Entitlements"] as? [String: Any] else {
            return .failure(Problem(reason: "Entitlements is missing or not a dictionary"))
        }
        let identity: CallerIdentity
        do {
            let xml = try PropertyListSerialization.data(fromPropertyList: entitlements, format: .xml, options: 0)
            identity = try CallerIdentity.entitlements(xml, source: source)
        } catch {
            return .failure(Problem(reason: "its Entitlements do not read: \(error)"))
        }
        guard !identity.accessGroups.isEmpty else { return .failure(Problem(reason: "its Entitlements name no group")) }
        let rule = PolicyRule(
            unit: plist["Unit"] as? String, flatpakAppID: plist["FlatpakID"] as? String, snap: plist["Snap"] as? String,
            securityLabel: plist["AppArmorLabel"] as? String, executablePath: plist["Executable"] as? String,
            executableSHA256: digest, identity: identity, source: source)
        guard rule.hasSelector else { return .failure(Problem(reason: "it names no process (no selector)")) }
        return .success(rule)
    }

    private static func bytes(hexadecimal text: String) -> [UInt8]? {
        let digits = Array(text.lowercased().utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        var index = 0
        while index < digits.count {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
