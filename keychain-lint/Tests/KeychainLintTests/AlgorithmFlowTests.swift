import Foundation
import Testing

@testable import KeychainLint

/// KL607 and KL608 follow an algorithm or a padding from the constant that names it to the SecKey call that uses
/// it, within one file: locals, stored and computed properties, enum switches, and parameters whose call sites
/// pass a constant. A value the code picks at run time from input the file does not show stays silent.
@Suite struct AlgorithmFlowTests {
    private func messages(of rule: String, in source: String, path: String = "Fixture.swift") -> [String] {
        findings(in: source, path: path).filter { $0.rule.id == rule }.map(\.message)
    }

    // MARK: The legacy calls with the constant written in place

    @Test func legacyCallsWithTheTypeNameSpelledOutAreReported() {
        let source = """
            func legacy(_ key: SecKey, _ bytes: [UInt8], _ out: inout [UInt8], _ length: inout Int) {
                _ = SecKeyEncrypt(key, SecPadding.PKCS1, bytes, bytes.count, &out, &length)
                _ = SecKeyRawSign(key, SecPadding.PKCS1SHA1, bytes, bytes.count, &out, &length)
            }
            """
        #expect(locations(of: "KL607", in: source) == ["2:28"])
        #expect(locations(of: "KL608", in: source) == ["3:28"])
    }

    @Test func callsInAClosureStoredInAPropertyAreChecked() {
        let source = """
            final class Box {
                let seal: (SecKey, [UInt8], inout [UInt8], inout Int) -> OSStatus = { key, plain, out, length in
                    let padding = SecPadding.PKCS1
                    return SecKeyEncrypt(key, padding, plain, plain.count, &out, &length)
                }
                lazy var signer: (SecKey, [UInt8], inout [UInt8], inout Int) -> OSStatus = { key, digest, out, n in
                    SecKeyRawSign(key, .PKCS1SHA1, digest, digest.count, &out, &n)
                }
            }
            """
        #expect(locations(of: "KL607", in: source) == ["4:35"])
        #expect(locations(of: "KL608", in: source) == ["7:28"])
        #expect(findings(in: source).first { $0.rule.id == "KL608" }?.message.contains("signs a SHA-1") == true)
    }

    // MARK: Locals

    @Test func aPaddingHeldInALocalIsFollowedToTheLegacyCall() {
        let source = """
            func encrypt(_ key: SecKey, _ plain: [UInt8], _ out: inout [UInt8], _ length: inout Int) -> OSStatus {
                let padding = SecPadding.PKCS1
                return SecKeyEncrypt(key, padding, plain, plain.count, &out, &length)
            }
            func decrypt(_ key: SecKey, _ sealed: [UInt8], _ out: inout [UInt8], _ length: inout Int) -> OSStatus {
                var padding: SecPadding = .PKCS1
                padding = .PKCS1
                return SecKeyDecrypt(key, padding, sealed, sealed.count, &out, &length)
            }
            func sign(_ key: SecKey, _ digest: [UInt8], _ out: inout [UInt8], _ length: inout Int) -> OSStatus {
                let padding: SecPadding = .PKCS1SHA1
                return SecKeyRawSign(key, padding, digest, digest.count, &out, &length)
            }
            func verify(_ key: SecKey, _ digest: [UInt8], _ signature: [UInt8]) -> OSStatus {
                let padding = SecPadding.PKCS1SHA1
                return SecKeyRawVerify(key, padding, digest, digest.count, signature, signature.count)
            }
            """
        #expect(locations(of: "KL607", in: source) == ["3:31", "8:31"])
        let encryption = messages(of: "KL607", in: source)
        #expect(encryption.first?.contains("`padding`") == true)
        #expect(encryption.first?.contains("line 2") == true)
        // Line 7 overwrites line 6's value on every path to the call: the padding it uses comes from line 7.
        #expect(encryption.last?.contains("from line 7)") == true)
        // The finding sits at the call that signs; the constant is not reported a second time where it is written.
        #expect(locations(of: "KL608", in: source) == ["12:31", "16:33"])
        let signatures = messages(of: "KL608", in: source)
        #expect(signatures.first?.contains("signs a SHA-1 digest") == true)
        #expect(signatures.first?.contains("line 11") == true)
        #expect(signatures.last?.contains("verifies a SHA-1 digest") == true)
    }

    @Test func anAlgorithmHeldInALocalIsReportedWhereItIsUsed() {
        let source = """
            func sign(_ data: Data, with key: SecKey) -> Data? {
                let algorithm: SecKeyAlgorithm = .rsaSignatureMessagePKCS1v15SHA1
                guard SecKeyIsAlgorithmSupported(key, .sign, algorithm) else { return nil }
                return SecKeyCreateSignature(key, algorithm, data as CFData, nil) as Data?
            }
            """
        #expect(locations(of: "KL608", in: source) == ["4:39"])
        #expect(messages(of: "KL608", in: source).first?.contains("line 2") == true)
    }

    @Test func aTernaryWhoseArmsAreBothWeakIsReported() {
        let source = """
            func encrypt(_ data: Data, for key: SecKey, legacy: Bool) -> Data? {
                let algorithm = legacy ? SecKeyAlgorithm.rsaEncryptionPKCS1 : kSecKeyAlgorithmRSAEncryptionPKCS1
                return SecKeyCreateEncryptedData(key, legacy ? algorithm : .rsaEncryptionPKCS1, data as CFData, nil)
                    as Data?
            }
            """
        #expect(locations(of: "KL607", in: source) == ["3:43"])
        let message = messages(of: "KL607", in: source).first ?? ""
        #expect(message.contains("the value of the argument, from lines 2 and 3"))
        #expect(message.hasPrefix("rsaEncryptionPKCS1 or kSecKeyAlgorithmRSAEncryptionPKCS1 "))
    }

    @Test func anObjectiveCPaddingVariableIsFollowed() {
        let source = """
            OSStatus Encrypt(SecKeyRef key, const uint8_t *plain, size_t length, uint8_t *out, size_t *outLength) {
                SecPadding padding = kSecPaddingPKCS1;
                return SecKeyEncrypt(key, padding, plain, length, out, outLength);
            }
            """
        #expect(locations(of: "KL607", in: source, path: "Crypt.m") == ["3:31"])
    }

    @Test func aPaddingChosenAtRunTimeStaysSilent() {
        let source = """
            func encrypt(_ key: SecKey, legacy: Bool, _ plain: [UInt8], _ out: inout [UInt8], _ n: inout Int) {
                let chosen: SecPadding = legacy ? .PKCS1 : .OAEP
                _ = SecKeyEncrypt(key, chosen, plain, plain.count, &out, &n)
                var padding = SecPadding.OAEP
                if legacy { padding = .PKCS1 }
                _ = SecKeyEncrypt(key, padding, plain, plain.count, &out, &n)
                let fromSettings = Settings.current.padding
                _ = SecKeyEncrypt(key, fromSettings, plain, plain.count, &out, &n)
            }
            """
        #expect(locations(of: "KL607", in: source).isEmpty)
    }

    @Test func pkcs1PaddingGivenToASignatureCallStaysSilent() {
        let source = """
            func sign(_ key: SecKey, _ digestInfo: [UInt8], _ out: inout [UInt8], _ length: inout Int) -> OSStatus {
                let padding = SecPadding.PKCS1
                return SecKeyRawSign(key, padding, digestInfo, digestInfo.count, &out, &length)
            }
            """
        #expect(locations(of: "KL607", in: source).isEmpty)
        #expect(locations(of: "KL608", in: source).isEmpty)
    }

    // MARK: Properties

    @Test func storedPropertiesAreFollowed() {
        let source = """
            final class LegacyCipher {
                private let padding: SecPadding = .PKCS1
                static let signaturePadding = SecPadding.PKCS1SHA1
                func encrypt(_ key: SecKey, _ plain: [UInt8], _ out: inout [UInt8], _ n: inout Int) -> OSStatus {
                    SecKeyEncrypt(key, padding, plain, plain.count, &out, &n)
                }
                func decrypt(_ key: SecKey, _ sealed: [UInt8], _ out: inout [UInt8], _ n: inout Int) -> OSStatus {
                    SecKeyDecrypt(key, self.padding, sealed, sealed.count, &out, &n)
                }
                func sign(_ key: SecKey, _ digest: [UInt8], _ out: inout [UInt8], _ n: inout Int) -> OSStatus {
                    SecKeyRawSign(key, Self.signaturePadding, digest, digest.count, &out, &n)
                }
            }
            """
        #expect(locations(of: "KL607", in: source) == ["5:28", "8:28"])
        #expect(messages(of: "KL607", in: source).allSatisfy { $0.contains("line 2") })
        #expect(locations(of: "KL608", in: source) == ["11:28"])
        #expect(messages(of: "KL608", in: source).first?.contains("line 3") == true)
    }

    @Test func aStoredVariableSetElsewhereFromInputStaysSilent() {
        let source = """
            final class Cipher {
                var padding: SecPadding = .PKCS1
                init(padding: SecPadding) { self.padding = padding }
                func encrypt(_ key: SecKey, _ plain: [UInt8], _ out: inout [UInt8], _ n: inout Int) -> OSStatus {
                    SecKeyEncrypt(key, padding, plain, plain.count, &out, &n)
                }
            }
            """
        #expect(locations(of: "KL607", in: source).isEmpty)
    }

    @Test func computedPropertiesAndEnumSwitchesAreFollowed() {
        let source = """
            enum DigestType {
                case sha1, sha256
                var padding: SecPadding {
                    switch self {
                    case .sha1: return .PKCS1SHA1
                    case .sha256: return .PKCS1SHA256
                    }
                }
                var algorithm: SecKeyAlgorithm { .rsaSignatureMessagePKCS1v15SHA1 }
            }
            func signLegacy(_ key: SecKey, _ digest: [UInt8], _ out: inout [UInt8], _ n: inout Int) -> OSStatus {
                SecKeyRawSign(key, DigestType.sha1.padding, digest, digest.count, &out, &n)
            }
            func signModern(_ key: SecKey, _ digest: [UInt8], _ out: inout [UInt8], _ n: inout Int) -> OSStatus {
                let type = DigestType.sha256
                return SecKeyRawSign(key, type.padding, digest, digest.count, &out, &n)
            }
            func sign(_ data: Data, with key: SecKey) -> Data? {
                SecKeyCreateSignature(key, DigestType.sha256.algorithm, data as CFData, nil) as Data?
            }
            """
        #expect(locations(of: "KL608", in: source) == ["12:24", "19:32"])
        let messages = messages(of: "KL608", in: source)
        #expect(messages.first?.contains("line 5") == true)
        #expect(messages.last?.contains("line 9") == true)
    }

    @Test func aSwitchOverAnUnknownCaseStaysSilentAtTheCall() {
        // SwiftyRSA's shape: the digest type is chosen by callers the file does not contain. The SHA-1 arm is
        // still reported where it is written, as any SHA-1 signature padding is.
        let source = """
            enum DigestType {
                case sha1, sha256
                var padding: SecPadding {
                    switch self {
                    case .sha1: return .PKCS1SHA1
                    case .sha256: return .PKCS1SHA256
                    }
                }
            }
            func sign(_ key: SecKey, digestType: DigestType, _ d: [UInt8], _ out: inout [UInt8], _ n: inout Int) {
                _ = SecKeyRawSign(key, digestType.padding, d, d.count, &out, &n)
            }
            """
        #expect(locations(of: "KL608", in: source) == ["5:28"])
    }

    // MARK: Parameters

    @Test func aParameterIsFollowedToTheConstantsItsCallersPass() {
        let source = """
            func encrypt(_ plain: [UInt8], with key: SecKey, padding: SecPadding) -> [UInt8] {
                var out = [UInt8](repeating: 0, count: SecKeyGetBlockSize(key))
                var length = out.count
                _ = SecKeyEncrypt(key, padding, plain, plain.count, &out, &length)
                return out
            }
            func encryptForLegacyServer(_ plain: [UInt8], key: SecKey) -> [UInt8] {
                encrypt(plain, with: key, padding: .PKCS1)
            }
            func encryptModern(_ plain: [UInt8], key: SecKey) -> [UInt8] {
                encrypt(plain, with: key, padding: .OAEP)
            }
            enum DigestType {
                case sha1, sha256
                var padding: SecPadding {
                    switch self {
                    case .sha1: return .PKCS1SHA1
                    case .sha256: return .PKCS1SHA256
                    }
                }
            }
            func sign(_ key: SecKey, digestType: DigestType, _ d: [UInt8], _ out: inout [UInt8], _ n: inout Int) {
                _ = SecKeyRawSign(key, digestType.padding, d, d.count, &out, &n)
            }
            func signForLegacyServer(_ key: SecKey, _ d: [UInt8], _ out: inout [UInt8], _ n: inout Int) {
                sign(key, digestType: .sha1, d, &out, &n)
            }
            """
        #expect(locations(of: "KL607", in: source) == ["4:28"])
        #expect(messages(of: "KL607", in: source).first?.contains("line 8") == true)
        #expect(locations(of: "KL608", in: source) == ["23:28"])
        #expect(messages(of: "KL608", in: source).first?.contains("line 17") == true)
    }

    @Test func aParameterWithoutCallersOrWithStrongCallersStaysSilent() {
        let source = """
            public func encrypted(_ plain: [UInt8], with key: SecKey, padding: SecPadding) -> [UInt8] {
                var out = [UInt8](repeating: 0, count: SecKeyGetBlockSize(key))
                var length = out.count
                _ = SecKeyEncrypt(key, padding, plain, plain.count, &out, &length)
                return out
            }
            func seal(_ plain: [UInt8], key: SecKey, padding: SecPadding) -> [UInt8] {
                var out = [UInt8](repeating: 0, count: SecKeyGetBlockSize(key))
                var length = out.count
                _ = SecKeyEncrypt(key, padding, plain, plain.count, &out, &length)
                return out
            }
            func sealModern(_ plain: [UInt8], key: SecKey, chosen: SecPadding) -> [UInt8] {
                _ = seal(plain, key: key, padding: .OAEP)
                return seal(plain, key: key, padding: chosen)
            }
            """
        #expect(locations(of: "KL607", in: source).isEmpty)
    }

    @Test func aParameterShadowedByALocalAndARecursiveCallerAreFollowed() {
        let source = """
            func seal(_ key: SecKey, _ plain: [UInt8], padding: SecPadding, rounds: Int) {
                let padding = padding
                if rounds > 0 { seal(key, plain, padding: padding, rounds: rounds - 1) }
                var out = [UInt8](repeating: 0, count: 256)
                var length = out.count
                _ = SecKeyEncrypt(key, padding, plain, plain.count, &out, &length)
            }
            func sealTwice(_ key: SecKey, _ plain: [UInt8]) {
                seal(key, plain, padding: .PKCS1, rounds: 2)
            }
            """
        #expect(locations(of: "KL607", in: source) == ["6:28"])
        #expect(messages(of: "KL607", in: source).first?.contains("line 9") == true)
    }

    @Test func anObjectiveCMethodParameterIsFollowedToItsCaller() {
        let source = """
            @implementation Sealer
            - (OSStatus)seal:(NSData *)plain padding:(SecPadding)padding into:(uint8_t *)out length:(size_t *)length {
                return SecKeyEncrypt(self.key, padding, plain.bytes, plain.length, out, length);
            }
            - (OSStatus)sealLegacy:(NSData *)plain into:(uint8_t *)out length:(size_t *)length {
                return [self seal:plain padding:kSecPaddingPKCS1 into:out length:length];
            }
            @end
            """
        #expect(locations(of: "KL607", in: source, path: "Sealer.m") == ["3:36"])
        #expect(findings(in: source, path: "Sealer.m").first?.message.contains("line 6") == true)
    }

    @Test func comparingWithAWeakPaddingIsNotUsingIt() {
        let source = """
            func overhead(of padding: SecPadding) -> Int {
                switch padding {
                case .PKCS1SHA1, .PKCS1SHA256: return 0
                case .OAEP: return 42
                default: return 11
                }
            }
            func isLegacy(_ algorithm: SecKeyAlgorithm) -> Bool {
                algorithm == .rsaSignatureMessagePKCS1v15SHA1 || algorithm == .rsaEncryptionPKCS1
            }
            """
        #expect(locations(of: "KL607", in: source).isEmpty)
        #expect(locations(of: "KL608", in: source).isEmpty)
    }

    // MARK: The pre-parse filter

    @Test func filesThatOnlyNameAWeakPaddingAreParsed() {
        for snippet in [
            "case .sha1: return .PKCS1SHA1", "let a = SecKeyAlgorithm.ecdsaSignatureMessageX962SHA1",
            "return .rsaSignatureDigestPSSSHA1",
        ] {
            #expect(RelevanceFilter.mayMatter(snippet), "\(snippet)")
        }
    }
}
