import KeychainCrypto

/// The key an authentication factor's items are bound to: HMAC-SHA-256 under the device key of
/// `label ‖ 0 ‖ secret`, so that the factor's file alone opens nothing. The secret is read where it lies and the
/// key is written straight into wiped memory: no plain copy of either is left behind.
enum FactorKey {
    static func derive(deviceKey: SecureBytes, label: String, secret: UnsafeRawBufferPointer) throws -> SecureBytes {
        try HMACSHA256(key: deviceKey).prefixed(with: Array(label.utf8) + [0]).authenticateIntoSecureBytes(
            bytes: secret)
    }

    /// The key of a secret a file keeps in Base64.
    /// - Throws: `errSecDecode` naming `fileName` when the text is not Base64.
    static func derive(deviceKey: SecureBytes, label: String, base64Secret: String, fileName: String) throws
        -> SecureBytes
    {
        guard let secret = SecureBytes(base64Encoded: base64Secret) else {
            throw KeychainError.decode.because("\(fileName) is damaged")
        }
        return try secret.withUnsafeBytes { try derive(deviceKey: deviceKey, label: label, secret: $0) }
    }
}
