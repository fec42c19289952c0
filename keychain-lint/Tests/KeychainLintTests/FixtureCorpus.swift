/// The fixture set as small projects (round two, and CryptoKit's advice). A line that must be reported ends with
/// `// expect: KLnnn` (`<!-- expect: KLnnn -->` in property lists; `// expect-above: KLnnn` alone on the next line
/// where the line is long); every other line must stay silent. `FixtureCorpusTests` measures
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
                (
                    "App/Demo/PinLoginTest.swift",
                    """
                    final class PinLoginTest {
                        let adminPassword = "Qx7-pin-2291" // expect: KL402
                    }
                    """
                ),
                (
                    "App/Query/QuerySpec.m",
                    """
                    static NSString *const kClientSecret = @"d41d8cd98f00b204e9800998ecf8427e"; // expect: KL402
                    """
                ),
                ("AppTests/LoginTests.swift", "import XCTest\nlet password = \"Qx7-pin-2291\"\n"),
            ]),
        Case(
            name: "secrets-under-other-names",
            files: [
                (
                    "App/Settings.swift",
                    """
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
                    """
                )
            ]),
        Case(
            name: "common-crypto-where-it-is-called",
            files: [
                (
                    "App/Seal.swift",
                    """
                    import Foundation
                    func seal(_ data: Data, out: UnsafeMutableRawPointer) {
                        let key = "0123456789abcdef".data(using: .utf8)!
                        var moved = 0
                        CCCrypt(kCCEncrypt, kCCAlgorithmAES, kCCOptionECBMode, // expect: KL503
                                (key as NSData).bytes, kCCKeySizeAES128, nil, (data as NSData).bytes, data.count,
                                out, data.count + 16, &moved)
                    }
                    """
                ),
                (
                    "App/Digest.swift",
                    """
                    import CommonCrypto
                    func digest(_ data: Data) -> [UInt8] {
                        var hash = [UInt8](repeating: 0, count: Int(CC_SHA256_DIGEST_LENGTH))
                        data.withUnsafeBytes { _ = CC_SHA256($0.baseAddress, CC_LONG(data.count), &hash) }
                        return hash
                    }
                    """
                ),
                (
                    "App/HOTP.m",
                    """
                    #import <CommonCrypto/CommonHMAC.h>
                    NSData *HOTP(NSData *secret, uint64_t counter) {
                        unsigned char mac[CC_SHA1_DIGEST_LENGTH];
                        CCHmac(kCCHmacAlgSHA1, secret.bytes, secret.length, &counter, sizeof(counter), mac);
                        return [NSData dataWithBytes:mac length:sizeof(mac)];
                    }
                    """
                ),
            ]),
        Case(
            name: "read-errors-that-destroy-data",
            files: [
                (
                    "App/TokenStore.swift",
                    """
                    final class TokenStore {
                        func remove(_ key: String) throws {
                            SecItemDelete([kSecClass: kSecClassGenericPassword, // expect: KL208
                                           kSecAttrAccount: key] as CFDictionary)
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
                    """
                ),
                (
                    "App/KeychainHelper.swift",
                    """
                    struct ReadResult { var data: Data?; var error: OSStatus? }
                    enum KeychainHelper {
                        static func read(account: String) -> ReadResult {
                            var item: CFTypeRef?
                            let status = SecItemCopyMatching([kSecAttrAccount: account] as CFDictionary, &item)
                            return ReadResult(data: item as? Data, error: status == errSecSuccess ? nil : status)
                        }
                        static func delete(account: String) {
                            SecItemDelete([kSecAttrAccount: account] as CFDictionary) // expect: KL208
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
                    """
                ),
            ]),
        Case(
            name: "forced-casts-of-results",
            files: [
                (
                    "App/Reads.swift",
                    """
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
                    """
                )
            ]),
        Case(
            name: "user-presence-and-ui-gates",
            files: [
                (
                    "App/Protect.swift",
                    """
                    import LocalAuthentication
                    func protect(token: Data) {
                        let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                                                                     .userPresence, nil) // expect: KL306
                        let item: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                                   kSecAttrAccount as String: "session-token",
                                                   kSecAttrAccessControl as String: access as Any,
                                                   kSecValueData as String: token]
                        SecItemAdd(item as CFDictionary, nil) // expect: KL208
                    }
                    """
                ),
                (
                    "App/Team.swift",
                    """
                    import LocalAuthentication
                    func confirmLeaving(team: Team, context: LAContext) {
                        context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Go") { ok, _ in
                            // expect-above: KL304
                            if ok { self.teams.leave(team) }
                        }
                    }
                    """
                ),
            ]),
        Case(
            name: "background-read-of-a-when-unlocked-item",
            files: [
                (
                    "App/SessionStore.swift",
                    """
                    final class SessionStore {
                        func save(_ token: Data) {
                            SecItemAdd([kSecClass: kSecClassGenericPassword, // expect: KL102 KL208
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
                    """
                ),
                (
                    "App/AppDelegate.swift",
                    """
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
                    """
                ),
            ]),
        Case(
            name: "platform-from-the-project",
            files: [
                ("Mac.xcodeproj/project.pbxproj", "buildSettings = {\n    SDKROOT = macosx;\n};\n"),
                (
                    "Sources/Sync.swift",
                    """
                    import Foundation
                    func save(_ data: Data) {
                        SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrAccount: "sync", // expect: KL501 KL208
                                    kSecValueData: data,
                                    kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock] as CFDictionary, nil)
                        _ = UserDefaults.standard.bool(forKey: "synced")
                    }
                    """
                ),
            ]),
        Case(
            name: "publishable-keys",
            files: [
                (
                    "App/Services.swift",
                    """
                    enum Services {
                        static let mapsKey = "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW" // expect: KL404
                        static let awsAccessKey = "AKIAQ3EXAMPLEZ7KXW2P" // expect: KL402
                    }
                    func start() {
                        Mixpanel.initialize(token: "a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5") // expect: KL404
                    }
                    """
                ),
                (
                    "App/GoogleService-Info.plist",
                    """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <plist version="1.0"><dict>
                    <key>API_KEY</key><string>AIzaSyB9x8Y7w6V5u4T3s2R1q0PoNmLkJiHgFeD</string> <!-- expect: KL404 -->
                    </dict></plist>
                    """
                ),
            ]),
        Case(
            name: "not-secrets",
            files: [
                (
                    "App/Constants.swift",
                    """
                    enum PEM {
                        static let privateKeyHeader = "-----BEGIN PRIVATE KEY-----"
                        static let privateKeyFooter = "-----END RSA PRIVATE KEY-----"
                    }
                    enum Endpoints {
                        static let token = "/oauth2/token"
                    }
                    let secretItem = "com.example.app2.secret"
                    let tokenAccount = "com.acme.widget.v3.token"
                    """
                )
            ]),
        Case(
            name: "cryptokit-advice",
            files: [
                (
                    "App/Crypto/PasswordHasher.swift",
                    """
                    import CryptoKit
                    enum PasswordHasher {
                        static func hash(password: String, salt: Data) -> String {
                            Insecure.SHA1.hash(data: Data(password.utf8) + salt).description // expect: KL601
                        }
                    }
                    struct RequestSigner {
                        let appSecret: String
                        func signature(for query: String) -> String {
                            let signature = Insecure.MD5.hash(data: Data((query + appSecret).utf8)) // expect: KL601
                            return signature.map { String(format: "%02x", $0) }.joined()
                        }
                        func isValid(_ body: Data, mac: String) -> Bool {
                            let digest = Insecure.MD5.hash(data: body) // expect: KL601
                            return digest.description == mac
                        }
                    }
                    """
                ),
                (
                    "App/Cache/ImageCache.swift",
                    """
                    import CryptoKit
                    final class ImageCache {
                        func cacheKey(for url: URL) -> String {
                            Insecure.MD5.hash(data: Data(url.absoluteString.utf8)).map { String(format: "%02x", $0) }
                                .joined()
                        }
                        func etag(for body: Data) -> String {
                            "W/" + Insecure.SHA1.hash(data: body).description
                        }
                        func register(deviceToken: Data) {
                            let hashed = Insecure.SHA1.hash(data: deviceToken)
                            analytics.record(hashed.description)
                        }
                        func totp(secret: SymmetricKey, counter: Data) -> Data {
                            Data(HMAC<Insecure.SHA1>.authenticationCode(for: counter, using: secret))
                        }
                    }
                    """
                ),
                (
                    "App/Legacy/Signer.m",
                    """
                    #import <CommonCrypto/CommonDigest.h>
                    NSString *SignatureForPayload(NSData *payload) {
                        unsigned char digest[CC_MD5_DIGEST_LENGTH];
                        CC_MD5(payload.bytes, (CC_LONG)payload.length, digest); // expect: KL601
                        return [[NSData dataWithBytes:digest length:sizeof(digest)] base64EncodedStringWithOptions:0];
                    }
                    NSString *FileChecksum(NSData *contents) {
                        unsigned char digest[CC_MD5_DIGEST_LENGTH];
                        CC_MD5(contents.bytes, (CC_LONG)contents.length, digest);
                        return [[NSData dataWithBytes:digest length:sizeof(digest)] base64EncodedStringWithOptions:0];
                    }
                    """
                ),
                (
                    "App/Legacy/LegacyCipher.swift",
                    """
                    import CommonCrypto
                    private let legacyIV = "0123456789abcdef"
                    func legacyEncrypt(_ data: Data, key: Data, out: UnsafeMutableRawPointer) {
                        var moved = 0
                        CCCrypt(kCCEncrypt, kCCAlgorithmAES, kCCOptionPKCS7Padding, // expect: KL503
                                (key as NSData).bytes, key.count, legacyIV, (data as NSData).bytes, data.count,
                                out, data.count + 16, &moved)
                    }
                    """
                ),
                (
                    "App/Crypto/SealedStore.swift",
                    """
                    import CryptoKit
                    final class SealedStore {
                        private let storeKey = SymmetricKey(size: .bits128) // expect: KL602
                        private let nonce = AES.GCM.Nonce()
                        func seal(_ data: Data) throws -> Data {
                            try AES.GCM.seal(data, using: storeKey, nonce: nonce).combined! // expect: KL604
                        }
                        func sealNote(_ note: Data) throws -> Data {
                            let noteKey = SymmetricKey(size: .bits128) // expect: KL602
                            return try ChaChaPoly.seal(note, using: noteKey).combined
                        }
                        func sealOnce(_ data: Data) throws -> Data {
                            try AES.GCM.seal(data, using: SymmetricKey(size: .bits256)).combined!
                        }
                        func checkSizes() -> Bool {
                            SymmetricKey(size: .bits128).bitCount == 128
                        }
                    }
                    """
                ),
                (
                    "App/Crypto/Transport.swift",
                    """
                    import CryptoKit
                    enum Transport {
                        static let iv: [UInt8] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
                        static func encrypt(_ payload: Data, with key: SymmetricKey) throws -> Data {
                            let nonce = try AES.GCM.Nonce(data: iv)
                            return try AES.GCM.seal(payload, using: key, nonce: nonce).combined! // expect: KL604
                        }
                        static func encryptChunks(_ chunks: [Data], with key: SymmetricKey) throws -> [Data] {
                            let nonce = ChaChaPoly.Nonce()
                            var out: [Data] = []
                            for chunk in chunks {
                                let box = try ChaChaPoly.seal(chunk, using: key, nonce: nonce) // expect: KL604
                                out.append(box.combined)
                            }
                            return out
                        }
                        static func encryptFresh(_ payload: Data, with key: SymmetricKey) throws -> Data {
                            try AES.GCM.seal(payload, using: key, nonce: AES.GCM.Nonce()).combined!
                        }
                        static func knownAnswer() throws -> Data {
                            let key = SymmetricKey(data: [UInt8](repeating: 0, count: 32))
                            let zero = try AES.GCM.Nonce(data: [UInt8](repeating: 0, count: 12))
                            return try AES.GCM.seal(Data(), using: key, nonce: zero).tag
                        }
                    }
                    """
                ),
                (
                    "App/Crypto/DeviceIdentity.swift",
                    """
                    import CryptoKit
                    final class DeviceIdentity {
                        func makeKey() throws -> Data {
                            let key = try SecureEnclave.P256.Signing.PrivateKey() // expect: KL603
                            return key.dataRepresentation
                        }
                        func makeKeyIfPossible() throws -> Data? {
                            guard SecureEnclave.isAvailable else { return nil }
                            return try SecureEnclave.P256.KeyAgreement.PrivateKey().dataRepresentation
                        }
                        func restore(_ blob: Data) throws -> SecureEnclave.P256.Signing.PrivateKey {
                            try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: blob)
                        }
                    }
                    """
                ),
            ]),
        Case(
            name: "one-finding-per-statement",
            files: [
                (
                    "App/Save.swift",
                    """
                    func save(password: Data, access: SecAccessControl) {
                        let add: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                            kSecAttrAccount as String: "password",
                            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock, // expect: KL301
                            kSecAttrAccessControl as String: access,
                            kSecValueData as String: password]
                        SecItemAdd(add as CFDictionary, nil) // expect: KL208
                    }
                    """
                )
            ]),
        Case(
            name: "keys-and-certificates",
            files: [
                (
                    "App/Keys/SigningKeys.swift",
                    """
                    import Security
                    enum SigningKeys {
                        static let tag = "com.example.app.signing".data(using: .utf8)!
                        static func create() -> SecKey? {
                            let attributes: [String: Any] = [
                                kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                                kSecAttrKeySizeInBits as String: 256,
                                kSecPrivateKeyAttrs as String: [kSecAttrApplicationTag as String: tag],
                            ]
                            return SecKeyCreateRandomKey(attributes as CFDictionary, nil) // expect: KL605
                        }
                        static func load() -> SecKey? {
                            let query: [String: Any] = [
                                kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag,
                                kSecReturnRef as String: true,
                            ]
                            var item: CFTypeRef?
                            let status = SecItemCopyMatching(query as CFDictionary, &item)
                            return status == errSecSuccess ? (item as! SecKey) : nil
                        }
                        static func sign(_ data: Data, with key: SecKey) -> Data? {
                            let algorithm = SecKeyAlgorithm.ecdsaSignatureMessageX962SHA1
                            return SecKeyCreateSignature(key, algorithm, data as CFData, nil) as Data? // expect: KL608
                        }
                        static func signModern(_ data: Data, with key: SecKey) -> Data? {
                            SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, data as CFData, nil) as Data?
                        }
                    }
                    """
                ),
                (
                    "App/Keys/Envelope.swift",
                    """
                    import Security
                    func makeTransportKey() -> SecKey? {
                        let attributes = [kSecAttrKeyType: kSecAttrKeyTypeRSA,
                                          kSecAttrKeySizeInBits: 1024] as CFDictionary // expect: KL606
                        return SecKeyCreateRandomKey(attributes, nil)
                    }
                    func makeServerKey() -> SecKey? {
                        let attributes = [kSecAttrKeyType: kSecAttrKeyTypeRSA,
                                          kSecAttrKeySizeInBits: 3072] as CFDictionary
                        return SecKeyCreateRandomKey(attributes, nil)
                    }
                    func seal(_ secret: Data, for key: SecKey) -> Data? {
                        SecKeyCreateEncryptedData(key, .rsaEncryptionPKCS1, secret as CFData, nil) // expect: KL607
                            as Data?
                    }
                    func sealModern(_ secret: Data, for key: SecKey) -> Data? {
                        SecKeyCreateEncryptedData(key, .rsaEncryptionOAEPSHA256, secret as CFData, nil) as Data?
                    }
                    """
                ),
                (
                    "App/Network/Pinning.swift",
                    """
                    import Foundation
                    import CryptoKit
                    final class Pinning {
                        let bundled: Data
                        let pinnedKeys: Set<String>
                        init(bundled: Data, pinnedKeys: Set<String>) {
                            self.bundled = bundled
                            self.pinnedKeys = pinnedKeys
                        }
                        func certificateMatches(_ leaf: SecCertificate) -> Bool {
                            let der = SecCertificateCopyData(leaf) as Data
                            return der == bundled // expect: KL609
                        }
                        func keyMatches(_ leaf: SecCertificate) -> Bool {
                            guard let key = SecCertificateCopyKey(leaf),
                                  let raw = SecKeyCopyExternalRepresentation(key, nil) as Data? else { return false }
                            return pinnedKeys.contains(Data(SHA256.hash(data: raw)).base64EncodedString())
                        }
                    }
                    """
                ),
            ]),
    ]

    /// `rule@relative-path:line` for every marked line.
    static func expected(_ testCase: Case) -> Set<String> {
        var result: Set<String> = []
        for file in testCase.files {
            for (index, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                // `expect-above:` on a line of its own marks the line before it.
                // Several ids may follow one marker: `// expect: KL102 KL208`.
                func ids(after marker: Range<Substring.Index>) -> [Substring] {
                    line[marker.upperBound...].split(separator: " ").filter { $0.hasPrefix("KL") }.map { $0.prefix(5) }
                }
                if let marker = line.range(of: "expect-above: ") {
                    for id in ids(after: marker) { result.insert("\(id)@\(file.path):\(index)") }
                } else if let marker = line.range(of: "expect: ") {
                    for id in ids(after: marker) { result.insert("\(id)@\(file.path):\(index + 1)") }
                }
            }
        }
        return result
    }
}
