import Foundation
import Testing

@testable import KeychainLint

/// KL601 to KL604: CryptoKit against the advice of iOS security guidance, and the correct code that resembles it.
@Suite struct CryptoKitRuleTests {
    // MARK: KL601 weakDigestForSecurity

    @Test func weakDigestsThatDecideSecurityAreReported() {
        let source = """
            import CryptoKit
            func hashPassword(_ password: String) -> String {
                Insecure.MD5.hash(data: Data(password.utf8)).description
            }
            func isAuthentic(_ message: Data, receivedMAC: String) -> Bool {
                let digest = Insecure.SHA1.hash(data: message + sharedSalt)
                return digest.description == receivedMAC
            }
            func verifyLicense(_ license: Data, against expected: Data) -> Bool {
                var hasher = Insecure.SHA1()
                hasher.update(data: license)
                return Data(hasher.finalize()) == expected
            }
            func sessionToken(for user: String) -> String {
                let token = Insecure.MD5.hash(data: Data(user.utf8))
                return token.description
            }
            """
        #expect(locations(of: "KL601", in: source) == ["3:5", "6:18", "10:18", "15:17"])
        let message = findings(in: source).first { $0.rule.id == "KL601" }?.message ?? ""
        #expect(message.contains("hashes a password"))
        #expect(message.contains("SHA256"))
    }

    @Test func commonCryptoWeakDigestsAreReportedInSwiftAndObjectiveC() {
        let swift = """
            func storedPasswordHash(_ password: String) -> [UInt8] {
                var digest = [UInt8](repeating: 0, count: Int(CC_MD5_DIGEST_LENGTH))
                _ = CC_MD5(password, CC_LONG(password.utf8.count), &digest)
                return digest
            }
            """
        #expect(locations(of: "KL601", in: swift) == ["3:9"])
        let objectiveC = """
            NSData *SignatureOf(NSData *payload) {
                unsigned char mac[CC_SHA1_DIGEST_LENGTH];
                CC_SHA1(payload.bytes, (CC_LONG)payload.length, mac);
                return [NSData dataWithBytes:mac length:sizeof(mac)];
            }
            """
        #expect(locations(of: "KL601", in: objectiveC, path: "Sign.m") == ["3:5"])
        // KL503 keeps reporting ciphers only: a digest is not a cipher call.
        #expect(locations(of: "KL503", in: swift).isEmpty)
    }

    @Test func weakDigestsForCachesETagsAndChecksumsStaySilent() {
        let source = """
            import CryptoKit
            func cacheKey(for url: URL) -> String {
                Insecure.MD5.hash(data: Data(url.absoluteString.utf8)).map { String(format: "%02x", $0) }.joined()
            }
            func etag(of body: Data) -> String {
                "\\"" + Insecure.SHA1.hash(data: body).description + "\\""
            }
            func store(_ blob: Data) {
                let contentAddress = Insecure.SHA1.hash(data: blob)
                files.write(blob, named: contentAddress.description)
            }
            func legacyChecksums(_ data: Data) -> (md5: String, sha1: String) {
                let md5 = Insecure.MD5.hash(data: data)
                let sha1 = Insecure.SHA1.hash(data: data)
                return (md5.description, sha1.description)
            }
            func gravatarURL(email: String) -> URL {
                let hash = Insecure.MD5.hash(data: Data(email.lowercased().utf8))
                return URL(string: "https://www.gravatar.com/avatar/\\(hash)")!
            }
            func register(deviceToken: Data) {
                let hashed = Insecure.SHA1.hash(data: deviceToken)
                analytics.record(hashed.description)
            }
            func upload(_ file: Data, token: String) {
                let md5 = Insecure.MD5.hash(data: file)
                request.setValue(Data(md5).base64EncodedString(), forHTTPHeaderField: "Content-MD5")
            }
            func totp(secret: SymmetricKey, counter: Data) -> Data {
                Data(HMAC<Insecure.SHA1>.authenticationCode(for: counter, using: secret))
            }
            """
        #expect(locations(of: "KL601", in: source).isEmpty)
    }

    // MARK: KL602 shortSymmetricKey

    @Test func shortKeysThatOutliveTheFunctionAreReportedWithTheirUse() {
        let source = """
            import CryptoKit
            final class Store {
                let fileKey = SymmetricKey(size: .bits128)
                func newKey(_ data: Data) throws -> (SymmetricKey, Data) {
                    let key = SymmetricKey(size: .bits128)
                    return (key, try AES.GCM.seal(data, using: key).combined!)
                }
                func sealChaCha(_ data: Data) throws -> Data {
                    let key = SymmetricKey(size: SymmetricKeySize.bits128)
                    return try ChaChaPoly.seal(data, using: key).combined
                }
                func macKey() -> SymmetricKey {
                    SymmetricKey(size: .bits192)
                }
            }
            """
        let found = findings(in: source).filter { $0.rule.id == "KL602" }
        #expect(found.map { "\($0.position.line):\($0.position.column)" } == ["3:19", "5:19", "9:19", "13:9"])
        #expect(found.map(\.severity) == [.low, .medium, .medium, .low])
        #expect(found[2].message.contains("incorrectKeySize"))
        #expect(found[1].message.contains("256 bits"))
    }

    @Test func fullSizeKeysInspectedSizesAndOneShotKeysStaySilent() {
        let source = """
            import CryptoKit
            let appKey = SymmetricKey(size: .bits256)
            func sizes() -> [Int] {
                [SymmetricKey(size: .bits128).bitCount, SymmetricKeySize.bits128.bitCount]
            }
            func rejectsShortChaChaKeys() {
                #expect(throws: CryptoKitError.incorrectKeySize) {
                    try ChaChaPoly.seal(Data([1]), using: SymmetricKey(size: .bits128))
                }
            }
            func freshNoncesDiffer() throws -> Bool {
                let key = SymmetricKey(size: .bits128)
                return try AES.GCM.seal(Data([1]), using: key).nonce != AES.GCM.seal(Data([1]), using: key).nonce
            }
            func testIncorrectKeySize() throws {
                let wrongKey = SymmetricKey(size: .bits128)
                XCTAssertThrowsError(try ChaChaPoly.seal(Data([1]), using: wrongKey))
                XCTAssertThrowsError(try AES.permute(&chunk, key: wrongKey))
            }
            func wrapsWithAnyKeyEncryptionKey(_ key: SymmetricKey) throws {
                #expect(try wrapAndUnwrap(key, with: SymmetricKey(size: .bits128)) == key)
            }
            """
        #expect(locations(of: "KL602", in: source).isEmpty)
    }

    // MARK: KL603 secureEnclaveWithoutAvailabilityCheck

    @Test func enclaveKeysMadeWithoutTheCheckAreReported() {
        let source = """
            import CryptoKit
            func makeSigningKey() throws -> SecureEnclave.P256.Signing.PrivateKey {
                try SecureEnclave.P256.Signing.PrivateKey()
            }
            func makeAgreementKey(access: SecAccessControl) throws -> Data {
                let key = try SecureEnclave.P256.KeyAgreement.PrivateKey(accessControl: access)
                if SecureEnclave.isAvailable { print("enclave") }
                return key.dataRepresentation
            }
            """
        #expect(locations(of: "KL603", in: source) == ["3:9", "6:19"])
    }

    @Test func checkedOrRestoredEnclaveKeysStaySilent() {
        let source = """
            import CryptoKit
            func sign(_ data: Data) throws -> Data? {
                guard SecureEnclave.isAvailable else { return nil }
                let key = try SecureEnclave.P256.Signing.PrivateKey()
                return try key.signature(for: data).derRepresentation
            }
            func agreementKey() throws -> SecureEnclave.P256.KeyAgreement.PrivateKey? {
                if SecureEnclave.isAvailable {
                    return try SecureEnclave.P256.KeyAgreement.PrivateKey()
                }
                return nil
            }
            func restore(_ blob: Data) throws -> SecureEnclave.P256.Signing.PrivateKey {
                try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: blob)
            }
            enum Enclave {
                static var present: Bool { SecureEnclave.isAvailable }
            }
            func wrapped() throws -> SecureEnclave.P256.Signing.PrivateKey? {
                guard Enclave.present else { return nil }
                return try SecureEnclave.P256.Signing.PrivateKey()
            }
            func refusesWithoutEnclave() {
                #expect(throws: CryptoKitError.self) { try SecureEnclave.P256.Signing.PrivateKey() }
            }
            """
        #expect(locations(of: "KL603", in: source).isEmpty)
    }

    // MARK: KL604 nonceReuse

    @Test func repeatedNoncesAreReported() {
        let source = """
            import CryptoKit
            final class Vault {
                let key: SymmetricKey
                let nonce = AES.GCM.Nonce()
                static let fixedNonce: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
                init(key: SymmetricKey) { self.key = key }
                func seal(_ data: Data) throws -> Data {
                    try AES.GCM.seal(data, using: key, nonce: nonce).combined!
                }
                func sealFixed(_ data: Data) throws -> Data {
                    try AES.GCM.seal(data, using: key, nonce: AES.GCM.Nonce(data: Self.fixedNonce)).combined!
                }
                func sealChaCha(_ data: Data) throws -> Data {
                    let zero = try ChaChaPoly.Nonce(data: Data(repeating: 0, count: 12))
                    return try ChaChaPoly.seal(data, using: key, nonce: zero).combined
                }
                func sealBoth(_ first: Data, _ second: Data) throws -> [Data] {
                    let nonce = AES.GCM.Nonce()
                    let a = try AES.GCM.seal(first, using: key, nonce: nonce)
                    let b = try AES.GCM.seal(second, using: key, nonce: nonce)
                    return [a.ciphertext, b.ciphertext]
                }
                func sealAll(_ chunks: [Data]) throws -> [Data] {
                    let nonce = AES.GCM.Nonce()
                    return try chunks.map { try AES.GCM.seal($0, using: key, nonce: nonce).ciphertext }
                }
            }
            """
        let found = findings(in: source).filter { $0.rule.id == "KL604" }
        let places = found.map { "\($0.position.line):\($0.position.column)" }
        #expect(places == ["8:13", "11:13", "15:20", "20:21", "25:37"])
        #expect(found.allSatisfy { $0.severity == .high })
        #expect(found[0].message.contains("stored in `nonce`"))
        #expect(found[1].message.contains("constant bytes"))
        #expect(found[3].message.contains("line 19"))
    }

    @Test func freshNoncesKnownAnswersAndOneTimeKeysStaySilent() {
        let source = """
            import CryptoKit
            func seal(_ data: Data, key: SymmetricKey) throws -> Data {
                try AES.GCM.seal(data, using: key).combined!
            }
            func sealWithFreshNonces(_ chunks: [Data], key: SymmetricKey) throws -> [Data] {
                try chunks.map { try AES.GCM.seal($0, using: key, nonce: AES.GCM.Nonce()).ciphertext }
            }
            func sealCounter(_ data: Data, key: SymmetricKey, counter: UInt64) throws -> Data {
                let nonce = try AES.GCM.Nonce(data: Data(count: 4) + withUnsafeBytes(of: counter) { Data($0) })
                return try AES.GCM.seal(data, using: key, nonce: nonce).ciphertext
            }
            enum Vectors {
                static let key = hexBytes("feffe9928665731c6d6a8f9467308308")
                static let nonce = hexBytes("cafebabefacedbaddecaf888")
            }
            func knownAnswer() throws -> Data {
                let key = SymmetricKey(data: Vectors.key)
                return try AES.GCM.seal(Data(), using: key, nonce: AES.GCM.Nonce(data: Vectors.nonce)).tag
            }
            func zeroKeyVector() throws -> Data {
                let key = SymmetricKey(data: [UInt8](repeating: 0, count: 32))
                let nonce = try AES.GCM.Nonce(data: [UInt8](repeating: 0, count: 12))
                let first = try AES.GCM.seal(Data(), using: key, nonce: nonce)
                let second = try AES.GCM.seal(Data(count: 16), using: key, nonce: nonce)
                return first.tag + second.tag
            }
            func oneTimeKey(_ data: Data) throws -> (SymmetricKey, Data) {
                let key = SymmetricKey(size: .bits256)
                let nonce = try AES.GCM.Nonce(data: Data(repeating: 7, count: 12))
                return (key, try AES.GCM.seal(data, using: key, nonce: nonce).ciphertext)
            }
            final class Channel {
                let nonce = AES.GCM.Nonce()
                static let iv: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
                func send(_ data: Data, sessionKey: SymmetricKey, nonce: AES.GCM.Nonce) throws -> Data {
                    try AES.GCM.seal(data, using: sessionKey, nonce: nonce).ciphertext
                }
                func send(_ data: Data, sessionKey: SymmetricKey, iv: [UInt8]) throws -> Data {
                    try AES.GCM.seal(data, using: sessionKey, nonce: AES.GCM.Nonce(data: iv)).ciphertext
                }
            }
            func sealEither(_ data: Data, compressed: Bool, sessionKey: SymmetricKey) throws -> Data {
                let nonce = AES.GCM.Nonce()
                if compressed {
                    return try AES.GCM.seal(compress(data), using: sessionKey, nonce: nonce).ciphertext
                } else {
                    return try AES.GCM.seal(data, using: sessionKey, nonce: nonce).ciphertext
                }
            }
            func open(_ box: Data, key: SymmetricKey) throws -> Data {
                let fixed = try AES.GCM.Nonce(data: Data(repeating: 0, count: 12))
                return try AES.GCM.open(AES.GCM.SealedBox(nonce: fixed, ciphertext: box, tag: Data()), using: key)
            }
            """
        #expect(locations(of: "KL604", in: source).isEmpty)
    }

    @Test func theRelevanceFilterKeepsCryptoKitCode() {
        for snippet in [
            "Insecure.MD5.hash(data: d)", "CC_MD5(p, n, &o)", "SymmetricKey(size: .bits128)",
            "SecureEnclave.P256.Signing.PrivateKey()", "AES.GCM.seal(d, using: k, nonce: n)",
        ] {
            #expect(RelevanceFilter.mayMatter(snippet), "\(snippet)")
        }
    }
}

/// The CryptoKit rules in SARIF: Apple's page as helpUri, CWE and MASVS tags, and a repeated nonce as an error.
@Suite struct CryptoKitSARIFTests {
    @Test func sarifDescribesTheCryptoKitRules() throws {
        let source = """
            import CryptoKit
            let nonce = AES.GCM.Nonce()
            func seal(_ data: Data, key: SymmetricKey) throws -> Data {
                try AES.GCM.seal(data, using: key, nonce: nonce).ciphertext
            }
            """
        let report = Linter().lint(files: [SourceFile(path: "App/Seal.swift", text: source)])
        let sarif = try ReportFormatTests.object(ReportFormat.sarif.render(report))
        let run = try #require((sarif["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let rules = try #require(driver["rules"] as? [[String: Any]])
        for id in ["KL601", "KL602", "KL603", "KL604"] {
            let rule = try #require(rules.first { $0["id"] as? String == id })
            let uri = rule["helpUri"] as? String ?? ""
            #expect(uri.hasPrefix("https://developer.apple.com/documentation/cryptokit"))
            let tags = (rule["properties"] as? [String: Any])?["tags"] as? [String] ?? []
            #expect(tags.contains { $0.hasPrefix("external/cwe/cwe-") })
            #expect(tags.contains { $0.hasPrefix("MASVS-CRYPTO") })
        }
        let result = try #require((run["results"] as? [[String: Any]])?.first)
        #expect(result["ruleId"] as? String == "KL604")
        #expect(result["level"] as? String == "error")
    }
}
