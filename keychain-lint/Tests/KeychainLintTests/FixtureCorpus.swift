/// The round-two fixture set as small projects. A line that must be reported ends with `// expect: KLnnn`
/// (`<!-- expect: KLnnn -->` in property lists; `// expect-above: KLnnn` alone on the next line where the line is
/// long); every other line must stay silent. `FixtureCorpusTests` measures
/// precision and recall over it, and `KEYCHAIN_LINT_CORPUS_DIR` writes it out for running a built binary.
enum FixtureCorpus {
    struct Case {
        var name: String
        /// Relative path and contents of each file of the project.
        var files: [(path: String, text: String)]
    }

    static let cases: [Case] = [
        Case(
            name: "shipping-files-named-like-tests",
            files: [
                ("App/Demo/PinLoginTest.swift", """
                    final class PinLoginTest {
                        let adminPassword = "Qx7-pin-2291" // expect: KL402
                    }
                    """),
                ("App/Query/QuerySpec.m", """
                    static NSString *const kClientSecret = @"d41d8cd98f00b204e9800998ecf8427e"; // expect: KL402
                    """),
                ("AppTests/LoginTests.swift", "import XCTest\nlet password = \"Qx7-pin-2291\"\n"),
            ]),
        Case(
            name: "secrets-under-other-names",
            files: [
                ("App/Settings.swift", """
                    func remember(passcode: String, card: Card) {
                        UserDefaults.standard.set("1234", forKey: "PIN") // expect: KL401
                        let defaults = UserDefaults(suiteName: "group.shop")
                        defaults?.set(passcode, forKey: "lockSetting") // expect: KL401
                        defaults?.set(card.cvv, forKey: "checkoutCard") // expect: KL401
                        UserDefaults.standard.set(true, forKey: "pinEnabled")
                    }
                    final class Cipher {
                        var encryptionKey = "letmeinletmein" // expect: KL402
                        var aesKey = "0123456789abcdef0123456789abcdef" // expect: KL402
                        static let hmacKey = "hmacKey"
                    }
                    enum Credentials: String {
                        case clientSecret = "9e107d9d372bb6826bd81d3542a419d6a5b5f2b0e1b7d3c4f6" // expect: KL402
                        case clientName = "ios-app"
                    }
                    func configure(store: SecretStore) {
                        store.set("Tr0ub4dor&3", forKey: "adminPassword") // expect: KL402
                    }
                    """),
            ]),
        Case(
            name: "common-crypto-where-it-is-called",
            files: [
                ("App/Seal.swift", """
                    import Foundation
                    func seal(_ data: Data, out: UnsafeMutableRawPointer) {
                        let key = "0123456789abcdef".data(using: .utf8)!
                        var moved = 0
                        CCCrypt(kCCEncrypt, kCCAlgorithmAES, kCCOptionECBMode, // expect: KL503
                                (key as NSData).bytes, kCCKeySizeAES128, nil, (data as NSData).bytes, data.count,
                                out, data.count + 16, &moved)
                    }
                    """),
                ("App/Digest.swift", """
                    import CommonCrypto
                    func digest(_ data: Data) -> [UInt8] {
                        var hash = [UInt8](repeating: 0, count: Int(CC_SHA256_DIGEST_LENGTH))
                        data.withUnsafeBytes { _ = CC_SHA256($0.baseAddress, CC_LONG(data.count), &hash) }
                        return hash
                    }
                    """),
                ("App/HOTP.m", """
                    #import <CommonCrypto/CommonHMAC.h>
                    NSData *HOTP(NSData *secret, uint64_t counter) {
                        unsigned char mac[CC_SHA1_DIGEST_LENGTH];
                        CCHmac(kCCHmacAlgSHA1, secret.bytes, secret.length, &counter, sizeof(counter), mac);
                        return [NSData dataWithBytes:mac length:sizeof(mac)];
                    }
                    """),
            ]),
        Case(
            name: "read-errors-that-destroy-data",
            files: [
                ("App/TokenStore.swift", """
                    final class TokenStore {
                        func remove(_ key: String) throws {
                            SecItemDelete([kSecClass: kSecClassGenericPassword, kSecAttrAccount: key] as CFDictionary)
                        }
                        func migrate(_ key: String, value: Data, legacy: Bool) throws {
                            var result: AnyObject?
                            let query = [kSecAttrAccount: key, kSecReturnData: true] as CFDictionary
                            var status = SecItemCopyMatching(query, &result)
                            if status == errSecInteractionNotAllowed && legacy {
                                try remove(key) // expect: KL202
                            }
                            status = SecItemUpdate([kSecAttrAccount: key] as CFDictionary,
                                                   [kSecValueData: value] as CFDictionary)
                        }
                    }
                    """),
                ("App/KeychainHelper.swift", """
                    struct ReadResult { var data: Data?; var error: OSStatus? }
                    enum KeychainHelper {
                        static func read(account: String) -> ReadResult {
                            var item: CFTypeRef?
                            let status = SecItemCopyMatching([kSecAttrAccount: account] as CFDictionary, &item)
                            return ReadResult(data: item as? Data, error: status == errSecSuccess ? nil : status)
                        }
                        static func delete(account: String) {
                            SecItemDelete([kSecAttrAccount: account] as CFDictionary)
                        }
                    }
                    func deviceIdentifier() -> Data {
                        let result = KeychainHelper.read(account: "device-id")
                        if result.error != nil {
                            KeychainHelper.delete(account: "device-id") // expect: KL202
                            return Data()
                        }
                        return result.data ?? Data()
                    }
                    """),
            ]),
        Case(
            name: "forced-casts-of-results",
            files: [
                ("App/Reads.swift", """
                    extension KeychainStore {
                        func account(from attributes: [String: Any]) -> String {
                            attributes[kSecAttrAccount as String] as! String // expect: KL207
                        }
                        func read(query: [String: Any]) -> Data? {
                            var result: AnyObject?
                            let status = withUnsafeMutablePointer(to: &result) {
                                SecItemCopyMatching(query as CFDictionary, UnsafeMutablePointer($0))
                            }
                            guard status == errSecSuccess else { return nil }
                            return (result as! Data) // expect: KL207
                        }
                    }
                    """),
            ]),
        Case(
            name: "user-presence-and-ui-gates",
            files: [
                ("App/Protect.swift", """
                    import LocalAuthentication
                    func protect(token: Data) {
                        let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                                                                     .userPresence, nil) // expect: KL306
                        let item: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                                   kSecAttrAccount as String: "session-token",
                                                   kSecAttrAccessControl as String: access as Any,
                                                   kSecValueData as String: token]
                        SecItemAdd(item as CFDictionary, nil)
                    }
                    """),
                ("App/Team.swift", """
                    import LocalAuthentication
                    func confirmLeaving(team: Team, context: LAContext) {
                        context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Go") { ok, _ in
                            // expect-above: KL304
                            if ok { self.teams.leave(team) }
                        }
                    }
                    """),
            ]),
        Case(
            name: "background-read-of-a-when-unlocked-item",
            files: [
                ("App/SessionStore.swift", """
                    final class SessionStore {
                        func save(_ token: Data) {
                            SecItemAdd([kSecClass: kSecClassGenericPassword, // expect: KL102
                                        kSecAttrService: "session",
                                        kSecValueData: token] as CFDictionary, nil)
                        }
                        func sessionToken() -> Data? {
                            var result: CFTypeRef?
                            SecItemCopyMatching([kSecClass: kSecClassGenericPassword, kSecAttrService: "session",
                                                 kSecReturnData: true] as CFDictionary, &result)
                            return result as? Data
                        }
                    }
                    """),
                ("App/AppDelegate.swift", """
                    final class AppDelegate {
                        let keychainStore = SessionStore()
                        func application(_ application: UIApplication,
                                         performFetchWithCompletionHandler handler: @escaping (Result) -> Void) {
                            let token = keychainStore.sessionToken() // expect: KL505
                            handler(.newData)
                        }
                        func showProfile() {
                            let token = keychainStore.sessionToken()
                        }
                    }
                    """),
            ]),
        Case(
            name: "platform-from-the-project",
            files: [
                ("Mac.xcodeproj/project.pbxproj", "buildSettings = {\n    SDKROOT = macosx;\n};\n"),
                ("Sources/Sync.swift", """
                    import Foundation
                    func save(_ data: Data) {
                        SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrAccount: "sync", // expect: KL501
                                    kSecValueData: data,
                                    kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock] as CFDictionary, nil)
                        _ = UserDefaults.standard.bool(forKey: "synced")
                    }
                    """),
            ]),
        Case(
            name: "publishable-keys",
            files: [
                ("App/Services.swift", """
                    enum Services {
                        static let mapsKey = "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW" // expect: KL404
                        static let awsAccessKey = "AKIAQ3EXAMPLEZ7KXW2P" // expect: KL402
                    }
                    func start() {
                        Mixpanel.initialize(token: "a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5") // expect: KL404
                    }
                    """),
                ("App/GoogleService-Info.plist", """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <plist version="1.0"><dict>
                    <key>API_KEY</key><string>AIzaSyB9x8Y7w6V5u4T3s2R1q0PoNmLkJiHgFeD</string> <!-- expect: KL404 -->
                    </dict></plist>
                    """),
            ]),
        Case(
            name: "not-secrets",
            files: [
                ("App/Constants.swift", """
                    enum PEM {
                        static let privateKeyHeader = "-----BEGIN PRIVATE KEY-----"
                        static let privateKeyFooter = "-----END RSA PRIVATE KEY-----"
                    }
                    enum Endpoints {
                        static let token = "/oauth2/token"
                    }
                    let secretItem = "com.example.app2.secret"
                    let tokenAccount = "com.acme.widget.v3.token"
                    """),
            ]),
        Case(
            name: "one-finding-per-statement",
            files: [
                ("App/Save.swift", """
                    func save(password: Data, access: SecAccessControl) {
                        let add: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                            kSecAttrAccount as String: "password",
                            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock, // expect: KL301
                            kSecAttrAccessControl as String: access,
                            kSecValueData as String: password]
                        SecItemAdd(add as CFDictionary, nil)
                    }
                    """),
            ]),
    ]

    /// `rule@relative-path:line` for every marked line.
    static func expected(_ testCase: Case) -> Set<String> {
        var result: Set<String> = []
        for file in testCase.files {
            for (index, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                // `expect-above:` on a line of its own marks the line before it.
                if let marker = line.range(of: "expect-above: ") {
                    result.insert("\(line[marker.upperBound...].prefix(5))@\(file.path):\(index)")
                } else if let marker = line.range(of: "expect: ") {
                    result.insert("\(line[marker.upperBound...].prefix(5))@\(file.path):\(index + 1)")
                }
            }
        }
        return result
    }
}
