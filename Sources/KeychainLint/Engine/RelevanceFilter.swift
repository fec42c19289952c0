import Foundation

/// Decides from the raw text whether a Swift file can trigger any rule, so files without keychain, secret,
/// authentication or privacy vocabulary skip the full parse, which dominates the analyzer's run time.
///
/// Every rule needs at least one of these words in the file it reports on; a test in `RelevanceFilterTests`
/// keeps the list in step with the rule fixtures.
enum RelevanceFilter {
    /// `KEYCHAIN_LINT_PARSE_ALL=1` parses every file, to check that the filter changes no result.
    static let isDisabled = ProcessInfo.processInfo.environment["KEYCHAIN_LINT_PARSE_ALL"] != nil

    /// Lower-case needles; the file is lower-cased before searching.
    static let needles: [String] = [
        // Keychain Services and wrappers.
        "ksec", "secitem", "keychain", "secaccesscontrol", "errsec", "seckey", ".always", "accessiblealways",
        // Secret-like names and well-known credential formats.
        "secret", "token", "password", "passwd", "passphrase", "credential", "jwt", "bearer", "apikey", "api_key",
        "privatekey", "private_key", "accesskey", "access_key", "signingkey", "signing_key", "encryptionkey",
        "encryption_key", "masterkey", "master_key", "licensekey", "license_key", "clientkey", "client_key",
        "appkey", "app_key", "hmackey", "hmac_key", "akia", "sk_live_", "rk_live_", "ghp_", "gho_", "github_pat_",
        "xoxb-", "xoxp-", "aiza", "private key-----", "glpat-",
        // Stores that are not the keychain.
        "userdefaults", "appstorage", "scenestorage", "keyvaluestore",
        // LocalAuthentication and access control.
        "evaluatepolicy", "biometr", "touchid", "faceid", "lacontext", "userpresence", "deviceownerauthentication",
        // Platform rules and required-reason APIs.
        "commoncrypto", "cccrypt", "systemuptime", "mach_absolute_time", "volumeavailablecapacity", "systemfreesize",
        "activeinputmodes", "creationdatekey", "contentmodificationdatekey", "filemodificationdate",
        "nsfilecreationdate", "nsfilemodificationdate",
    ]

    /// Needles grouped by their first byte, so each position of the text is compared with a few of them.
    private static let needlesByFirstByte: [[[UInt8]]] = {
        var table = Array(repeating: [[UInt8]](), count: 256)
        for needle in needles {
            let bytes = Array(needle.utf8)
            table[Int(bytes[0])].append(bytes)
        }
        return table
    }()

    static func mayMatter(_ text: String) -> Bool {
        var bytes = Array(text.utf8)
        for index in bytes.indices where bytes[index] >= 0x41 && bytes[index] <= 0x5A { bytes[index] |= 0x20 }
        let table = needlesByFirstByte
        return bytes.withUnsafeBufferPointer { haystack in
            let count = haystack.count
            for start in 0..<count {
                let candidates = table[Int(haystack[start])]
                guard !candidates.isEmpty else { continue }
                for needle in candidates where start + needle.count <= count {
                    var offset = 1
                    while offset < needle.count, haystack[start + offset] == needle[offset] { offset += 1 }
                    if offset == needle.count { return true }
                }
            }
            return false
        }
    }
}
