import Foundation
import Testing

@testable import KeychainLint

/// KL605 to KL609: SecKey and certificate code against the advice (keys looked up that were never stored, short
/// RSA keys, PKCS#1 v1.5 encryption, SHA-1 signatures, whole-certificate pinning), and the correct code beside it.
@Suite struct KeyRuleTests {
    // MARK: KL605 ephemeralKeyQueriedAsStored

    @Test func aKeyCreatedInMemoryAndLookedUpLaterIsReported() {
        let source = """
            let tag = "com.example.signing".data(using: .utf8)!
            func makeSigningKey() throws -> SecKey {
                let attributes: [String: Any] = [
                    kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                    kSecAttrKeySizeInBits as String: 256,
                    kSecPrivateKeyAttrs as String: [kSecAttrApplicationTag as String: tag],
                ]
                var error: Unmanaged<CFError>?
                guard let key = SecKeyCreateRandomKey(attributes as CFDictionary, &error) else {
                    throw error!.takeRetainedValue() as Error
                }
                return key
            }
            func signingKey() -> SecKey? {
                let query: [String: Any] = [
                    kSecClass as String: kSecClassKey,
                    kSecAttrApplicationTag as String: tag,
                    kSecReturnRef as String: true,
                ]
                var item: CFTypeRef?
                guard SecItemCopyMatching(query as CFDictionary, &item) == errSecSuccess else { return nil }
                return (item as! SecKey)
            }
            """
        #expect(locations(of: "KL605", in: source) == ["9:21"])
        let message = findings(in: source).first { $0.rule.id == "KL605" }?.message ?? ""
        #expect(message.contains("line 21 looks it up"))
        #expect(message.contains("kSecAttrIsPermanent: true"))
        // An explicit false says so.
        let explicit = source.replacingOccurrences(
            of: "[kSecAttrApplicationTag as String: tag]",
            with: "[kSecAttrApplicationTag as String: tag, kSecAttrIsPermanent as String: false]")
        #expect(findings(in: explicit).first { $0.rule.id == "KL605" }?.message.contains("to false") == true)
    }

    @Test func storedKeysAndKeysNeverLookedUpStaySilent() {
        let stored = """
            func makeKey() -> SecKey? {
                let attributes: [String: Any] = [
                    kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                    kSecAttrKeySizeInBits as String: 256,
                    kSecPrivateKeyAttrs as String: [
                        kSecAttrIsPermanent as String: true,
                        kSecAttrApplicationTag as String: "com.example.signing".data(using: .utf8)!,
                    ],
                ]
                return SecKeyCreateRandomKey(attributes as CFDictionary, nil)
            }
            func findKey() -> CFTypeRef? {
                let query = [kSecClass: kSecClassKey, kSecReturnRef: true,
                             kSecAttrApplicationTag: "com.example.signing".data(using: .utf8)!] as [CFString: Any]
                var item: CFTypeRef?
                SecItemCopyMatching(query as CFDictionary, &item)
                return item
            }
            """
        #expect(locations(of: "KL605", in: stored).isEmpty)
        // An ephemeral key that is never looked up, or a lookup of another key, is fine.
        let ephemeral = """
            func ephemeralAgreement(peer: SecKey) -> Data? {
                let attributes = [kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom,
                                  kSecPrivateKeyAttrs: [kSecAttrApplicationTag: "com.example.ephemeral"]] as CFDictionary
                guard let key = SecKeyCreateRandomKey(attributes, nil) else { return nil }
                return SecKeyCopyKeyExchangeResult(key, .ecdhKeyExchangeStandard, peer, [:] as CFDictionary, nil)
                    as Data?
            }
            func identityKey() -> CFTypeRef? {
                let query = [kSecClass: kSecClassKey, kSecAttrApplicationTag: "com.example.identity",
                             kSecReturnRef: true] as CFDictionary
                var item: CFTypeRef?
                SecItemCopyMatching(query, &item)
                return item
            }
            """
        #expect(locations(of: "KL605", in: ephemeral).isEmpty)
        // A permanence the analyzer cannot read may be true.
        let unknown = stored.replacingOccurrences(
            of: "kSecAttrIsPermanent as String: true",
            with: "kSecAttrIsPermanent as String: persist")
        #expect(locations(of: "KL605", in: unknown).isEmpty)
    }

    // MARK: KL606 shortRSAKey

    @Test func rsaKeysBelow2048BitsAreReportedInSwiftAndObjectiveC() {
        let swift = """
            static let legacyBits = 1024
            func makeRSAKey() -> SecKey? {
                let attributes: [CFString: Any] = [kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits: 1024]
                return SecKeyCreateRandomKey(attributes as CFDictionary, nil)
            }
            func makeSmallKey() -> SecKey? {
                var attributes: [String: Any] = [:]
                attributes[kSecAttrKeyType as String] = kSecAttrKeyTypeRSA
                attributes[kSecAttrKeySizeInBits as String] = NSNumber(value: 1536)
                return SecKeyCreateRandomKey(attributes as CFDictionary, nil)
            }
            func makeLegacyKey() -> SecKey? {
                let attributes = [kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits: legacyBits]
                    as CFDictionary
                return SecKeyCreateRandomKey(attributes, nil)
            }
            """
        #expect(locations(of: "KL606", in: swift) == ["3:100", "9:51", "13:83"])
        let message = findings(in: swift).first { $0.rule.id == "KL606" }?.message ?? ""
        #expect(message.contains("1024 bits") && message.contains("within reach of factoring"))
        let objectiveC = """
            SecKeyRef MakeKey(void) {
                NSDictionary *attributes = @{ (id)kSecAttrKeyType: (id)kSecAttrKeyTypeRSA,
                                              (id)kSecAttrKeySizeInBits: @1024 };
                return SecKeyCreateRandomKey((__bridge CFDictionaryRef)attributes, NULL);
            }
            """
        #expect(locations(of: "KL606", in: objectiveC, path: "Keys.m") == ["3:62"])
    }

    @Test func largeRSAAndECKeysStaySilent() {
        let source = """
            func makeKeys() {
                let rsa = [kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits: 2048] as CFDictionary
                let strong = [kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits: 4096] as CFDictionary
                let ec = [kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits: 256] as CFDictionary
                let unknown = [kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits: bits] as CFDictionary
                _ = [rsa, strong, ec, unknown].map { SecKeyCreateRandomKey($0, nil) }
            }
            """
        #expect(locations(of: "KL606", in: source).isEmpty)
    }

    // MARK: KL607 rsaPKCS1Encryption

    @Test func pkcs1EncryptionIsReported() {
        let swift = """
            func encrypt(_ data: Data, for key: SecKey) -> Data? {
                SecKeyCreateEncryptedData(key, .rsaEncryptionPKCS1, data as CFData, nil) as Data?
            }
            func decrypt(_ data: Data, with key: SecKey) -> Data? {
                let algorithm = SecKeyAlgorithm.rsaEncryptionPKCS1
                guard SecKeyIsAlgorithmSupported(key, .decrypt, .rsaEncryptionPKCS1) else { return nil }
                return SecKeyCreateDecryptedData(key, algorithm, data as CFData, nil) as Data?
            }
            func legacyEncrypt(_ key: SecKey, _ plain: [UInt8], _ out: inout [UInt8], _ length: inout Int) {
                SecKeyEncrypt(key, .PKCS1, plain, plain.count, &out, &length)
            }
            """
        // The local's constant is reported where the call uses it, once.
        #expect(locations(of: "KL607", in: swift) == ["2:36", "7:43", "10:24"])
        #expect(findings(in: swift).first { $0.rule.id == "KL607" }?.message.contains("OAEP") == true)
        let objectiveC = """
            NSData *Encrypt(SecKeyRef key, NSData *plain) {
                return (__bridge_transfer NSData *)SecKeyCreateEncryptedData(key,
                    kSecKeyAlgorithmRSAEncryptionPKCS1, (__bridge CFDataRef)plain, NULL);
            }
            """
        #expect(locations(of: "KL607", in: objectiveC, path: "Crypt.m") == ["3:9"])
    }

    @Test func oaepAndSigningPaddingStaySilent() {
        let source = """
            func encrypt(_ data: Data, for key: SecKey) -> Data? {
                SecKeyCreateEncryptedData(key, .rsaEncryptionOAEPSHA256, data as CFData, nil) as Data?
            }
            func sign(_ digest: [UInt8], key: SecKey, _ out: inout [UInt8], _ length: inout Int) {
                SecKeyRawSign(key, .PKCS1, digest, digest.count, &out, &length)
            }
            func supportsLegacy(_ key: SecKey) -> Bool {
                SecKeyIsAlgorithmSupported(key, .encrypt, .rsaEncryptionPKCS1)
            }
            """
        #expect(locations(of: "KL607", in: source).isEmpty)
    }

    // MARK: KL608 sha1Signature

    @Test func sha1SignaturesAreReported() {
        let swift = """
            func sign(_ data: Data, with key: SecKey) -> Data? {
                SecKeyCreateSignature(key, .rsaSignatureMessagePKCS1v15SHA1, data as CFData, nil) as Data?
            }
            func verify(_ signature: Data, of data: Data, with key: SecKey) -> Bool {
                SecKeyVerifySignature(key, .ecdsaSignatureMessageX962SHA1, data as CFData, signature as CFData, nil)
            }
            func legacySign(_ key: SecKey, _ digest: [UInt8], _ out: inout [UInt8], _ length: inout Int) {
                SecKeyRawSign(key, .PKCS1SHA1, digest, digest.count, &out, &length)
            }
            """
        #expect(locations(of: "KL608", in: swift) == ["2:32", "5:32", "8:24"])
        let messages = findings(in: swift).filter { $0.rule.id == "KL608" }.map(\.message)
        #expect(messages.first?.contains("signs a SHA-1 digest") == true)
        #expect(messages.dropFirst().first?.contains("verifies a SHA-1 digest") == true)
        let objectiveC = """
            NSData *Sign(SecKeyRef key, NSData *data) {
                return (__bridge_transfer NSData *)SecKeyCreateSignature(key,
                    kSecKeyAlgorithmRSASignatureDigestPSSSHA1, (__bridge CFDataRef)data, NULL);
            }
            """
        #expect(locations(of: "KL608", in: objectiveC, path: "Sign.m") == ["3:9"])
    }

    @Test func sha256SignaturesAndOAEPWithSHA1StaySilent() {
        let source = """
            func sign(_ data: Data, with key: SecKey) -> Data? {
                SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, data as CFData, nil) as Data?
            }
            func encrypt(_ data: Data, for key: SecKey) -> Data? {
                SecKeyCreateEncryptedData(key, .rsaEncryptionOAEPSHA1, data as CFData, nil) as Data?
            }
            func canVerifyLegacy(_ key: SecKey) -> Bool {
                SecKeyIsAlgorithmSupported(key, .verify, .rsaSignatureMessagePKCS1v15SHA1)
            }
            """
        #expect(locations(of: "KL608", in: source).isEmpty)
    }

    // MARK: KL609 wholeCertificatePinning

    @Test func pinningTheWholeCertificateIsReported() {
        let source = """
            final class PinningDelegate: NSObject, URLSessionDelegate {
                let pinned = NSData(contentsOf: Bundle.main.url(forResource: "server", withExtension: "cer")!)! as Data
                func urlSession(_ session: URLSession, didReceive challenge: URLAuthenticationChallenge,
                                completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?)
                                -> Void) {
                    guard let trust = challenge.protectionSpace.serverTrust,
                          let chain = SecTrustCopyCertificateChain(trust) as? [SecCertificate],
                          let leaf = chain.first else { return completionHandler(.cancelAuthenticationChallenge, nil) }
                    let serverData = SecCertificateCopyData(leaf) as Data
                    if serverData == pinned {
                        completionHandler(.useCredential, URLCredential(trust: trust))
                    } else {
                        completionHandler(.cancelAuthenticationChallenge, nil)
                    }
                }
                func matchesAny(_ chain: [SecCertificate], pins: [Data]) -> Bool {
                    chain.contains { certificate in pins.contains(SecCertificateCopyData(certificate) as Data) }
                }
                func matchesHash(_ leaf: SecCertificate, pinnedHash: String) -> Bool {
                    let digest = SHA256.hash(data: SecCertificateCopyData(leaf) as Data)
                    return Data(digest).base64EncodedString() == pinnedHash
                }
            }
            """
        #expect(locations(of: "KL609", in: source) == ["10:12", "17:41", "21:16"])
        #expect(findings(in: source).first { $0.rule.id == "KL609" }?.message.contains("SecCertificateCopyKey") == true)
        let objectiveC = """
            BOOL IsPinned(SecCertificateRef leaf, NSData *pinned) {
                NSData *server = (__bridge_transfer NSData *)SecCertificateCopyData(leaf);
                return [server isEqualToData:pinned];
            }
            """
        #expect(locations(of: "KL609", in: objectiveC, path: "Pin.m") == ["3:12"])
    }

    @Test func publicKeyPinningAndOtherUsesOfCertificateDataStaySilent() {
        let source = """
            func isPinned(_ leaf: SecCertificate, pins: Set<String>) -> Bool {
                guard let key = SecCertificateCopyKey(leaf),
                      let spki = SecKeyCopyExternalRepresentation(key, nil) as Data? else { return false }
                let hash = Data(SHA256.hash(data: rsa2048Header + spki)).base64EncodedString()
                return pins.contains(hash)
            }
            func export(_ certificate: SecCertificate) -> String {
                let der = SecCertificateCopyData(certificate) as Data
                return der.base64EncodedString()
            }
            func countCertificates(_ trust: SecTrust) -> Bool {
                SecTrustGetCertificateCount(trust) == 2
            }
            """
        #expect(locations(of: "KL609", in: source).isEmpty)
    }

    @Test func theKeyRulesCarrySARIFMetadata() {
        for id in ["KL605", "KL606", "KL607", "KL608", "KL609"] {
            let rule = RuleCatalog.rule(named: id)
            #expect(rule != nil, "\(id)")
            #expect(rule?.helpURI.hasPrefix("https://developer.apple.com/documentation/security/") == true, "\(id)")
            #expect(rule?.masvs.hasPrefix("MASVS-") == true && (rule?.cwe ?? 0) > 0, "\(id)")
        }
    }
}
