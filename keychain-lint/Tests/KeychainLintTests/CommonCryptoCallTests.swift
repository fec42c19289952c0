import Testing

@testable import KeychainLint

/// CommonCrypto is judged where a cipher is called, with the mode and IV it uses; hashing and HMAC are not.
@Suite struct CommonCryptoCallTests {
    @Test func cipherCallsAreReportedWithModeAndIV() {
        let source = """
            import Foundation
            func seal(_ data: Data, out: UnsafeMutableRawPointer) {
                let key = "0123456789abcdef".data(using: .utf8)!
                var moved = 0
                CCCrypt(CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), CCOptions(kCCOptionECBMode),
                        (key as NSData).bytes, kCCKeySizeAES128, nil, (data as NSData).bytes, data.count,
                        out, data.count + 16, &moved)
            }
            func sealCBC(_ data: Data, key: Data, out: UnsafeMutableRawPointer) {
                let iv = [UInt8](repeating: 0, count: 16)
                var moved = 0
                CCCrypt(CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), CCOptions(kCCOptionPKCS7Padding),
                        (key as NSData).bytes, key.count, iv, (data as NSData).bytes, data.count,
                        out, data.count + 16, &moved)
            }
            """
        let found = findings(in: source).filter { $0.rule.id == "KL503" }
        #expect(found.map { "\($0.position.line):\($0.position.column)" } == ["5:5", "12:5"])
        #expect(found.first?.message.contains("ECB") == true)
        #expect(found.first?.message.contains("key from a string") == true)
        #expect(found.dropFirst().first?.message.contains("constant IV") == true)
    }

    @Test func objectiveCCipherCallsAreReported() {
        let source = """
            #import "Bridging.h"
            NSData *Seal(NSData *data, NSData *key) {
                size_t moved = 0;
                CCCrypt(kCCEncrypt, kCCAlgorithmAES128, kCCOptionPKCS7Padding | kCCOptionECBMode,
                        key.bytes, kCCKeySizeAES128, NULL, data.bytes, data.length, buffer, size, &moved);
                return nil;
            }
            """
        let found = findings(in: source, path: "Seal.m").filter { $0.rule.id == "KL503" }
        #expect(found.map { "\($0.position.line):\($0.position.column)" } == ["4:5"])
        #expect(found.first?.message.contains("ECB") == true)
    }

    @Test func hashingAndHMACImportsAreNotReported() {
        let hashing = """
            import CommonCrypto
            func digest(_ data: Data) -> [UInt8] {
                var hash = [UInt8](repeating: 0, count: Int(CC_SHA256_DIGEST_LENGTH))
                data.withUnsafeBytes { _ = CC_SHA256($0.baseAddress, CC_LONG(data.count), &hash) }
                return hash
            }
            """
        #expect(locations(of: "KL503", in: hashing).isEmpty)
        let hotp = """
            #import <CommonCrypto/CommonHMAC.h>
            NSData *HOTP(NSData *secret, uint64_t counter) {
                unsigned char mac[CC_SHA1_DIGEST_LENGTH];
                CCHmac(kCCHmacAlgSHA1, secret.bytes, secret.length, &counter, sizeof(counter), mac);
                return [NSData dataWithBytes:mac length:sizeof(mac)];
            }
            """
        #expect(locations(of: "KL503", in: hotp, path: "HOTP.m").isEmpty)
        #expect(locations(of: "KL503", in: "import CommonCrypto\n").isEmpty)
    }
}

/// An IV or key kept in a file-level constant is as constant as one written in the call.
@Suite struct CommonCryptoFileConstantTests {
    @Test func ivsAndKeysFromFileConstantsAreReported() {
        let source = """
            import CommonCrypto
            private let kIV = "abcdefghijklmnop"
            private let kKey = "0123456789abcdef"
            func encrypt(_ data: Data, out: UnsafeMutableRawPointer) {
                var moved = 0
                CCCrypt(CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), CCOptions(kCCOptionPKCS7Padding),
                        kKey, kCCKeySizeAES128, kIV, (data as NSData).bytes, data.count, out, data.count + 16, &moved)
            }
            func encryptWithRandomIV(_ data: Data, key: Data, out: UnsafeMutableRawPointer) {
                var kIV = [UInt8](repeating: 0, count: 16)
                _ = SecRandomCopyBytes(kSecRandomDefault, kIV.count, &kIV)
                var moved = 0
                CCCrypt(CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), CCOptions(kCCOptionPKCS7Padding),
                        (key as NSData).bytes, key.count, kIV, (data as NSData).bytes, data.count, out, 64, &moved)
            }
            """
        let found = findings(in: source).filter { $0.rule.id == "KL503" }
        #expect(found.map { "\($0.position.line):\($0.position.column)" } == ["6:5", "13:5"])
        #expect(found.first?.severity == .medium)
        #expect(found.first?.message.contains("a constant IV") == true)
        #expect(found.first?.message.contains("a key from a string") == true)
        #expect(found.last?.message.contains("constant IV") == false)
    }
}
