import Dispatch
import Foundation

// Shared web credentials (SecSharedCredential.h): passwords that Safari shares with the apps whose associated
// domains name the website. Storing and requesting them need Safari's keychain and the check of the app's
// associated domains against the website, which this platform has not: both answer errSecUnimplemented through
// their completion handlers. The password generator needs neither and works as Apple documents it.

/// The key of the password in the credentials `SecRequestSharedWebCredential` delivers.
nonisolated(unsafe) public let kSecSharedPassword: CFString = SecConstant("spwd")

/// Stores, updates or (with a nil password) removes a password shared with Safari for `fqdn`.
/// The handler is called once, asynchronously, with an `NSOSStatusErrorDomain` error: errSecUnimplemented here.
public func SecAddSharedWebCredential(
    _ fqdn: CFString, _ account: CFString, _ password: CFString?, _ completionHandler: @escaping (CFError?) -> Void
) {
    // Apple's handler type is not @Sendable; it is called once, off the caller's stack, as Apple does.
    nonisolated(unsafe) let handler = completionHandler
    DispatchQueue.global().async { handler(SharedWebCredentials.unavailable) }
}

/// Requests the shared passwords of `fqdn` (and `account`). The handler is called once, asynchronously, with no
/// credentials (an empty array) and an `NSOSStatusErrorDomain` error: errSecUnimplemented here.
@available(*, deprecated, message: "Use ASAuthorizationController to make an ASAuthorizationPasswordRequest")
public func SecRequestSharedWebCredential(
    _ fqdn: CFString?, _ account: CFString?, _ completionHandler: @escaping (CFArray?, CFError?) -> Void
) {
    nonisolated(unsafe) let handler = completionHandler
    DispatchQueue.global().async { handler(NSArray(), SharedWebCredentials.unavailable) }
}

/// A random password of the form `xxx-xxx-xxx-xxx`, each `x` from Apple's three sets (lower case, upper case,
/// digits, without the look-alikes), with at least one character of each set.
public func SecCreateSharedWebCredentialPassword() -> CFString? {
    SharedWebCredentials.generatePassword() as NSString
}

enum SharedWebCredentials {
    static let lowerCase = Array("abcdefghkmnopqrstuvwxy")
    static let upperCase = Array("ABCDEFGHJKLMNPQRSTUVWXYZ")
    static let digits = Array("3456789")

    /// The error storing and requesting answer.
    static var unavailable: CFError {
        let reason =
            "shared web credentials need Safari's keychain and an associated-domains check, which this platform "
            + "does not have"
        return NSError(
            domain: "NSOSStatusErrorDomain", code: Int(errSecUnimplemented),
            userInfo: ["NSDescription": reason, NSLocalizedDescriptionKey: reason])
    }

    /// Twelve characters drawn uniformly from the three sets together (the system's cryptographic generator),
    /// drawn again until every set is present, in four groups of three.
    static func generatePassword() -> String {
        let alphabet = lowerCase + upperCase + digits
        var generator = SystemRandomNumberGenerator()
        while true {
            let characters = (0..<12).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
            let sets = [lowerCase, upperCase, digits].map(Set.init)
            guard sets.allSatisfy({ set in characters.contains { set.contains($0) } }) else { continue }
            return stride(from: 0, to: 12, by: 3).map { String(characters[$0..<$0 + 3]) }.joined(separator: "-")
        }
    }
}
