import Foundation
import KeychainCore
import Security

/// What an app does to sign a request with a key it keeps in the keychain: look the private key up by its
/// application tag (`kSecReturnRef`), then make one P-256 signature; and the two steps apart.
enum KeyItemBenchmark {
    static let keyCount = 100

    static func run(lookups: Int) throws {
        print("")
        print("Key items (\(keyCount) P-256 private keys, each with its own application tag):")
        let keychain = try makeKeychain("key-items")
        defer { keychain.close() }
        let message = Data("GET /v1/resource HTTP/1.1".utf8) as CFData
        try SecurityRuntime.withKeychain(keychain) {
            for index in 0..<keyCount {
                let parameters: [CFString: Any] = [
                    kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom,
                    kSecPrivateKeyAttrs: [kSecAttrIsPermanent: true, kSecAttrApplicationTag: tag(index)],
                ]
                guard SecKeyCreateRandomKey(parameters as CFDictionary, nil) != nil else {
                    throw KeychainError.param.because("the benchmark's key \(index) was not stored")
                }
            }
            var found: SecKey?
            let lookup = try Measurement.run("lookup by application tag (kSecReturnRef)", count: lookups) { index in
                found = try key(tag(index % keyCount))
            }
            guard let signing = found else { return }
            let signature = try Measurement.run("one P-256 signature (message, SHA-256)", count: lookups) { _ in
                guard SecKeyCreateSignature(signing, .ecdsaSignatureMessageX962SHA256, message, nil) != nil else {
                    throw KeychainError.param.because("the benchmark's signature failed")
                }
            }
            let both = try Measurement.run("lookup by tag + one signature", count: lookups) { index in
                guard
                    SecKeyCreateSignature(
                        try key(tag(index % keyCount)), .ecdsaSignatureMessageX962SHA256, message, nil) != nil
                else { throw KeychainError.param.because("the benchmark's signature failed") }
            }
            report(lookup)
            report(signature)
            report(both)
        }
    }

    private static func tag(_ index: Int) -> Data { Data("com.example.bench.key\(index)".utf8) }

    private static func key(_ tag: Data) throws -> SecKey {
        var result: AnyObject?
        let query: [CFString: Any] = [
            kSecClass: kSecClassKey, kSecAttrApplicationTag: tag, kSecAttrKeyClass: kSecAttrKeyClassPrivate,
            kSecReturnRef: true,
        ]
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        guard status == errSecSuccess, let key = result as? SecKey else {
            throw KeychainError(status, reason: "the benchmark's key lookup failed")
        }
        return key
    }
}
