import Testing

@testable import KeychainLint

/// The rules about secrets, cryptography and LocalAuthentication leave out an arm that a literal condition never
/// takes, as the item rules do (`DeadCodeTests`); the same code in an arm that can run is still reported.
@Suite struct LiteralDeadArmTests {
    /// `code` in each arm that a literal condition never takes.
    static func deadArms(_ code: String) -> [String] {
        ["if false {\n\(code)\n}", "if true {\n    print(0)\n} else {\n\(code)\n}"]
    }

    /// `code` in arms that run: the taken arm of a literal condition, an arm of an open one, and the code after
    /// `if true { return }`, which the item rules read too.
    static func liveArms(_ code: String) -> [String] {
        [
            "if false {\n    print(0)\n} else {\n\(code)\n}", "if true {\n\(code)\n}", "if ready {\n\(code)\n}",
            "if true { return }\n\(code)",
        ]
    }

    /// How many findings of each rule `code` gets in each dead arm, then in each live one, inside one function.
    static func counts(
        of rules: [String], for code: String, header: String = "import Foundation\nimport CryptoKit",
        with others: [SourceFile] = []
    ) -> (dead: [[Int]], live: [[Int]]) {
        func count(_ arm: String) -> [Int] {
            let source = header + "\nfunc run(ready: Bool) {\n" + arm + "\n}\n"
            let found = findings(in: source, with: others)
            return rules.map { rule in found.filter { $0.rule.id == rule }.count }
        }
        return (deadArms(code).map(count), liveArms(code).map(count))
    }

    @Test func secretRulesSkipDeadArms() {
        let code = """
                UserDefaults.standard.set(password, forKey: "userPassword")
                let clientSecret = "9f86d081884c7d65"
                print(password)
                Mixpanel.initialize(token: "a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5")
            """
        let found = Self.counts(of: ["KL401", "KL402", "KL403", "KL404"], for: code)
        #expect(found.dead == [[0, 0, 0, 0], [0, 0, 0, 0]])
        #expect(found.live == Array(repeating: [1, 1, 1, 1], count: 4))
    }

    @Test func commonCryptoSkipsDeadArms() {
        let code = """
                var moved = 0
                CCCrypt(CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), CCOptions(kCCOptionECBMode),
                        key, kCCKeySizeAES128, nil, bytes, count, out, count + 16, &moved)
            """
        let found = Self.counts(of: ["KL503"], for: code)
        #expect(found.dead == [[0], [0]])
        #expect(found.live == Array(repeating: [1], count: 4))
    }

    @Test func cryptoKitRulesSkipDeadArms() {
        let code = """
                let digest = Insecure.MD5.hash(data: Data(password.utf8))
                print(digest)
                _ = try? ChaChaPoly.seal(data, using: SymmetricKey(size: .bits128))
                let signer = try? SecureEnclave.P256.Signing.PrivateKey()
                print(signer as Any)
                _ = try? AES.GCM.seal(data, using: key, nonce: AES.GCM.Nonce(data: Data(repeating: 0, count: 12)))
            """
        let found = Self.counts(of: ["KL601", "KL602", "KL603", "KL604"], for: code)
        #expect(found.dead == [[0, 0, 0, 0], [0, 0, 0, 0]])
        #expect(found.live == Array(repeating: [1, 1, 1, 1], count: 4))
    }

    /// A digest compared with a signature only in a dead arm decides nothing about security.
    @Test func aDigestUsedOnlyInADeadArmIsNoSecurityUse() {
        let source = """
            import CryptoKit
            func matches(_ data: Data, signature: String) -> Bool {
                let digest = Insecure.MD5.hash(data: data).description
                if false { return digest == signature }
                return !digest.isEmpty
            }
            """
        #expect(locations(of: "KL601", in: source).isEmpty)
        let live = source.replacingOccurrences(of: "if false", with: "if data.count > 1")
        #expect(locations(of: "KL601", in: live) == ["3:18"])
    }

    @Test func secKeyAndCertificateRulesSkipDeadArms() {
        let code = """
                let parameters: [String: Any] = [kSecAttrKeyType as String: kSecAttrKeyTypeRSA,
                                                 kSecAttrKeySizeInBits as String: 1024]
                _ = SecKeyCreateRandomKey(parameters as CFDictionary, nil)
                _ = SecKeyCreateEncryptedData(publicKey, .rsaEncryptionPKCS1, data as CFData, nil)
                _ = SecKeyCreateSignature(privateKey, .rsaSignatureMessagePKCS1v15SHA1, data as CFData, nil)
                let pinnedMatch = (SecCertificateCopyData(certificate) as Data) == pinned
                print(pinnedMatch)
            """
        let found = Self.counts(of: ["KL606", "KL607", "KL608", "KL609"], for: code)
        #expect(found.dead == [[0, 0, 0, 0], [0, 0, 0, 0]])
        #expect(found.live == Array(repeating: [1, 1, 1, 1], count: 4))
    }

    /// A weak algorithm bound in a dead arm does not reach the call either (as before), nor is it reported where
    /// it is named.
    @Test func weakAlgorithmBoundInADeadArmIsSilent() {
        let source = """
            func encrypt(_ data: Data, with key: SecKey) -> CFData? {
                var algorithm = SecKeyAlgorithm.rsaEncryptionOAEPSHA256
                if false { algorithm = .rsaEncryptionPKCS1 }
                return SecKeyCreateEncryptedData(key, algorithm, data as CFData, nil)
            }
            """
        #expect(locations(of: "KL607", in: source).isEmpty)
        let live = source.replacingOccurrences(of: "if false", with: "if data.isEmpty")
        #expect(locations(of: "KL607", in: live) == ["3:35"])
    }

    /// A call in a dead arm gives its callee's parameter nothing, and the side of a literal conditional never taken
    /// gives a call's argument nothing, as values are followed elsewhere; the live side is still reported.
    @Test func weakAlgorithmPassedFromDeadCodeIsSilent() {
        let source = """
            func encrypt(_ data: Data, key: SecKey, algorithm: SecKeyAlgorithm) -> CFData? {
                SecKeyCreateEncryptedData(key, algorithm, data as CFData, nil)
            }
            func run(data: Data, key: SecKey) {
                if false { _ = encrypt(data, key: key, algorithm: .rsaEncryptionPKCS1) }
                _ = encrypt(data, key: key, algorithm: .rsaEncryptionOAEPSHA256)
                _ = SecKeyCreateEncryptedData(key, false ? .rsaEncryptionPKCS1 : .rsaEncryptionOAEPSHA256, data as CFData, nil)
            }
            """
        #expect(locations(of: "KL607", in: source).isEmpty)
        let live = source.replacingOccurrences(of: "if false", with: "if data.isEmpty")
            .replacingOccurrences(of: "false ?", with: "true ?")
        #expect(locations(of: "KL607", in: live) == ["2:36", "7:40"])
    }

    @Test func localAuthenticationRulesSkipDeadArms() {
        let evaluation = """
                context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock") { ok, _ in
                    if ok { showVault() }
                }
            """
        let gate = Self.counts(of: ["KL304"], for: evaluation)
        #expect(gate.dead == [[0], [0]])
        #expect(gate.live == Array(repeating: [1], count: 4))
        let plist = SourceFile(
            path: "App/Info.plist",
            text: AccessControlRuleTests.plist(keys: "<key>CFBundleName</key><string>App</string>"))
        let probe = "    _ = context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: nil)"
        let usage = Self.counts(of: ["KL305"], for: probe, with: [plist])
        #expect(usage.dead == [[0], [0]])
        #expect(usage.live == Array(repeating: [1], count: 4))
    }

    /// Objective-C's `if (NO)` and the `else` of `if (YES)` are dead as Swift's are; `if (0)` is not a Boolean
    /// literal and stays live.
    @Test func objectiveCBooleanLiteralsAreDeadAndZeroIsNot() {
        func found(_ condition: String, else otherwise: Bool = false) -> [String] {
            let body = """
                    [[NSUserDefaults standardUserDefaults] setObject:password forKey:@"password"];
                    CCCrypt(kCCEncrypt, kCCAlgorithmAES128, kCCOptionECBMode,
                            key.bytes, kCCKeySizeAES128, NULL, data.bytes, data.length, buffer, size, &moved);
                """
            let arms = otherwise ? "{\n}\nelse {\n\(body)\n}" : "{\n\(body)\n}"
            let source = """
                #import "Bridging.h"
                void Save(NSString *password, NSData *data, NSData *key) {
                    size_t moved = 0;
                    if (\(condition)) \(arms)
                }
                """
            return findings(in: source, path: "Save.m").map(\.rule.id).filter { ["KL401", "KL503"].contains($0) }
        }
        #expect(found("NO").isEmpty)
        #expect(found("YES", else: true).isEmpty)
        #expect(found("YES") == ["KL401", "KL503"])
        #expect(found("NO", else: true) == ["KL401", "KL503"])
        #expect(found("0") == ["KL401", "KL503"])
    }
}
