import CryptoKit
import CryptoKitBenchmarkBaseline
import Dispatch
import Foundation
import Security

// Times CryptoKit's operations beside the same operations written in C against libcrypto
// (CryptoKitBenchmarkBaseline), in one run. Each pair runs in alternation for several rounds and the best round
// of each counts, so that both sides meet the same machine. Run with
// `swift run -c release cryptokit-benchmarks [rounds] [only-operations-containing]`.

let arguments = Array(CommandLine.arguments.dropFirst())
let rounds = arguments.first.flatMap { Int($0) } ?? 15
let filter = arguments.count > 1 ? arguments[1] : ""

/// Nanoseconds per operation of `body` run `iterations` times.
func nanosecondsPerOperation(_ iterations: Int, _ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<iterations { try body() }
    return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(iterations)
}

struct Comparison {
    let name: String
    let iterations: Int
    let cryptoKit: () throws -> Void
    let baseline: (Int32) -> Double
}

let mebibyte = [UInt8](repeating: 0x61, count: 1 << 20)
let sixtyFour = Data(repeating: 0x61, count: 64)
let message = Data(repeating: 0x61, count: 64)
let aesKey = SymmetricKey(size: .bits256)
let signingKey = P256.Signing.PrivateKey()
let agreementKey = Curve25519.KeyAgreement.PrivateKey()
let peerKey = Curve25519.KeyAgreement.PrivateKey().publicKey
var sink = 0

/// A key for the SecKey rows: `SecKeyCreateRandomKey` with `type` and `bits`.
func secKey(_ type: CFString, bits: Int) -> SecKey {
    let parameters = [kSecAttrKeyType: type, kSecAttrKeySizeInBits: bits] as CFDictionary
    guard let key = SecKeyCreateRandomKey(parameters, nil) else { fatalError("SecKeyCreateRandomKey failed") }
    return key
}

let secP256 = secKey(kSecAttrKeyTypeECSECPrimeRandom, bits: 256)
let secP256Public = SecKeyCopyPublicKey(secP256)!
let secRSA = secKey(kSecAttrKeyTypeRSA, bits: 2048)
let secMessage = message as CFData
let secP256Signature = SecKeyCreateSignature(secP256, .ecdsaSignatureMessageX962SHA256, secMessage, nil)!

let comparisons = [
    Comparison(
        name: "SHA-256, 1 MiB", iterations: 10,
        cryptoKit: {
            sink &+= SHA256.hash(data: mebibyte).withUnsafeBytes { Int($0[0]) }
        }, baseline: { cryptokit_baseline_sha256(1 << 20, $0) }),
    Comparison(
        name: "AES.GCM seal, 1 MiB", iterations: 20,
        cryptoKit: {
            sink &+= try AES.GCM.seal(mebibyte, using: aesKey).combined!.count
        }, baseline: { cryptokit_baseline_aes_gcm_seal(1 << 20, $0) }),
    Comparison(
        name: "AES.GCM seal, 64 bytes", iterations: 20_000,
        cryptoKit: {
            sink &+= try AES.GCM.seal(sixtyFour, using: aesKey).combined!.count
        }, baseline: { cryptokit_baseline_aes_gcm_seal(64, $0) }),
    Comparison(
        name: "P256 sign (64-byte message)", iterations: 400,
        cryptoKit: {
            sink &+= try signingKey.signature(for: message).rawRepresentation.count
        }, baseline: { cryptokit_baseline_p256_sign($0) }),
    Comparison(
        name: "SecKey P-256 sign (64 bytes)", iterations: 400,
        cryptoKit: {
            sink &+= (SecKeyCreateSignature(secP256, .ecdsaSignatureMessageX962SHA256, secMessage, nil)! as Data).count
        }, baseline: { cryptokit_baseline_p256_sign($0) }),
    Comparison(
        name: "SecKey P-256 verify (64 bytes)", iterations: 400,
        cryptoKit: {
            let valid = SecKeyVerifySignature(
                secP256Public, .ecdsaSignatureMessageX962SHA256, secMessage, secP256Signature, nil)
            sink &+= valid ? 1 : 0
        }, baseline: { cryptokit_baseline_p256_verify($0) }),
    Comparison(
        name: "SecKey RSA-2048 sign (64 bytes)", iterations: 40,
        cryptoKit: {
            sink &+= (SecKeyCreateSignature(secRSA, .rsaSignatureMessagePKCS1v15SHA256, secMessage, nil)! as Data).count
        }, baseline: { cryptokit_baseline_rsa2048_sign($0) }),
    Comparison(
        name: "Curve25519 key agreement", iterations: 400,
        cryptoKit: {
            sink &+= try agreementKey.sharedSecretFromKeyAgreement(with: peerKey).withUnsafeBytes { $0.count }
        }, baseline: { cryptokit_baseline_x25519($0) }),
]

print("CryptoKit against OpenSSL in C (\(rounds) alternating rounds, best of each)")
print("operation                          CryptoKit µs/op   OpenSSL C µs/op   speed (C time / CryptoKit time)")
for comparison in comparisons where filter.isEmpty || comparison.name.contains(filter) {
    var bestCryptoKit = Double.infinity
    var bestBaseline = Double.infinity
    // One warm-up of each, then the rounds.
    _ = try nanosecondsPerOperation(max(1, comparison.iterations / 10), comparison.cryptoKit)
    _ = comparison.baseline(Int32(max(1, comparison.iterations / 10)))
    for _ in 0..<rounds {
        bestCryptoKit = min(bestCryptoKit, try nanosecondsPerOperation(comparison.iterations, comparison.cryptoKit))
        let baseline = comparison.baseline(Int32(comparison.iterations))
        precondition(baseline > 0, "the C baseline failed")
        bestBaseline = min(bestBaseline, baseline)
    }
    let name = comparison.name.padding(toLength: 34, withPad: " ", startingAt: 0)
    let ours = String(format: "%12.2f", bestCryptoKit / 1000)
    let theirs = String(format: "%18.2f", bestBaseline / 1000)
    print("\(name) \(ours)     \(theirs)            \(String(format: "%.2f×", bestBaseline / bestCryptoKit))")
}
if sink == 42 { print("") }  // keeps the results alive

// SecureEnclave signing in the TPM named by KEYCHAIN_TPM_TCTI (or /dev/tpmrm0), when there is one.
if SecureEnclave.isAvailable, filter.isEmpty || "SecureEnclave".contains(filter) {
    let enclaveKey = try SecureEnclave.P256.Signing.PrivateKey()
    var best = Double.infinity
    for _ in 0..<5 {
        best = min(
            best,
            try nanosecondsPerOperation(40) {
                sink &+= try enclaveKey.signature(for: message).rawRepresentation.count
            })
    }
    let name = "SecureEnclave P256 sign (TPM)".padding(toLength: 34, withPad: " ", startingAt: 0)
    print("\(name) \(String(format: "%12.2f", best / 1000))")
} else {
    print("SecureEnclave: no TPM (set KEYCHAIN_TPM_TCTI, e.g. swtpm:host=127.0.0.1,port=2321)")
}
