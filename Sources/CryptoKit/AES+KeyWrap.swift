internal import CryptoKitOpenSSL
internal import KeychainCrypto

extension AES {
    /// AES key wrap (RFC 3394) with a 128, 192 or 256-bit key-encryption key.
    public enum KeyWrap {
        /// Wraps `keyToWrap` under `kek`.
        /// - Parameters:
        ///   - keyToWrap: A key of at least 16 bytes whose size is a multiple of 8 bytes.
        ///   - kek: The key-encryption key: 128, 192 or 256 bits.
        /// - Returns: The wrapped key, 8 bytes longer.
        /// - Throws: `CryptoKitError.incorrectKeySize` for a KEK of another size, `.wrapFailure` for a key to wrap
        ///   of a length RFC 3394 does not take.
        public static func wrap(_ keyToWrap: SymmetricKey, using kek: SymmetricKey) throws -> Data {
            try translatingErrors {
                try keyToWrap.withUnsafeBytes { key in
                    try kek.withUnsafeBytes { kek in Data(try AESKeyWrapping.wrap(key, kek: kek)) }
                }
            }
        }

        /// Unwraps a key wrapped by ``wrap(_:using:)``.
        /// - Parameters:
        ///   - wrappedKey: The wrapped key.
        ///   - kek: The key-encryption key it was wrapped under.
        /// - Returns: The key.
        /// - Throws: `CryptoKitError.unwrapFailure` when the KEK is wrong or the wrapped key was altered,
        ///   `.incorrectKeySize` for a KEK of another size.
        public static func unwrap<WrappedKey: DataProtocol>(_ wrappedKey: WrappedKey, using kek: SymmetricKey) throws
            -> SymmetricKey
        {
            guard wrappedKey.count >= 24 else { throw CryptoKitError.unwrapFailure }
            return try translatingErrors {
                try withContiguousBytes(of: wrappedKey) { wrapped in
                    try kek.withUnsafeBytes { kek in
                        let secret = try SecureBytes(count: wrapped.count - 8) { output in
                            try AESKeyWrapping.unwrap(wrapped, kek: kek, into: output)
                        }
                        return SymmetricKey(secret: secret)
                    }
                }
            }
        }
    }
}
