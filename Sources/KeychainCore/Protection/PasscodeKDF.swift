import Foundation
import KeychainCrypto

/// Turns a passcode into the key that wraps the class keys of classes A and C: PBKDF2-HMAC-SHA-256, tuned so
/// one derivation takes about 80 ms here, then tangled with the device key (an HMAC under it), so that neither
/// the passcode without the device key nor the device key without the passcode opens them.
enum PasscodeKDF {
    /// Chooses iterations so one derivation takes about `target` seconds on this machine.
    static func tune(target: Double) throws -> (iterations: Int, milliseconds: Double) {
        let probe = 20_000
        let password = SecureBytes(Array("calibration".utf8))
        let start = DispatchTime.now().uptimeNanoseconds
        _ = try KeyDerivation.pbkdf2SHA256(password: password, salt: Array(repeating: 1, count: 16), iterations: probe)
        let perIteration = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 / Double(probe)
        // Clamped before the conversion (which would trap on a value out of range) and to PBKDF2's 32-bit count.
        let wanted = min(target / max(perIteration, 1e-9), Double(Int32.max))
        let iterations = max(1_000, wanted.isFinite ? Int(wanted) : 1_000)
        return (iterations, Double(iterations) * perIteration * 1000)
    }

    /// The wrapping key for `passcode` under `record`'s parameters and the device key.
    static func derive(passcode: SecureBytes, salt: [UInt8], iterations: Int, deviceKey: SecureBytes) throws
        -> SecureBytes
    {
        let stretched = try KeyDerivation.pbkdf2SHA256(password: passcode, salt: salt, iterations: iterations)
        // The label is absorbed first, so the stretched passcode is read where it lies and never copied.
        let tangle = try HMACSHA256(key: deviceKey).prefixed(with: Array(KeyHierarchy.passcodeTangle.utf8) + [0])
        return try stretched.withUnsafeBytes { try tangle.authenticateIntoSecureBytes(bytes: $0) }
    }
}
