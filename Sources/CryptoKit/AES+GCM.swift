internal import CryptoKitOpenSSL

extension AES {
    /// AES in Galois/Counter Mode (NIST SP 800-38D) with 128, 192 or 256-bit keys and a 16-byte tag.
    public enum GCM {
        static let defaultNonceByteCount = 12
        static let tagByteCount = 16

        /// Encrypts `message` under `key` and authenticates it together with `authenticatedData`.
        /// - Parameters:
        ///   - message: The plaintext.
        ///   - key: A 128, 192 or 256-bit key.
        ///   - nonce: The nonce, or nil for a fresh random one. Never reuse a nonce with the same key.
        ///   - authenticatedData: Data authenticated but not encrypted.
        /// - Returns: The sealed box: nonce, ciphertext and tag.
        /// - Throws: `CryptoKitError.incorrectKeySize` for a key of another size.
        public static func seal<Plaintext: DataProtocol, AuthenticatedData: DataProtocol>(
            _ message: Plaintext, using key: SymmetricKey, nonce: Nonce? = nil,
            authenticating authenticatedData: AuthenticatedData
        ) throws -> SealedBox {
            try withContiguousBytes(of: authenticatedData) { aad in
                try seal(message, using: key, nonce: nonce, aad: aad)
            }
        }

        /// Encrypts and authenticates `message` under `key`.
        /// - Parameters:
        ///   - message: The plaintext.
        ///   - key: A 128, 192 or 256-bit key.
        ///   - nonce: The nonce, or nil for a fresh random one. Never reuse a nonce with the same key.
        /// - Returns: The sealed box: nonce, ciphertext and tag.
        /// - Throws: `CryptoKitError.incorrectKeySize` for a key of another size.
        public static func seal<Plaintext: DataProtocol>(
            _ message: Plaintext, using key: SymmetricKey, nonce: Nonce? = nil
        ) throws -> SealedBox {
            try seal(message, using: key, nonce: nonce, aad: UnsafeRawBufferPointer(start: nil, count: 0))
        }

        /// Checks and decrypts `sealedBox`, authenticating `authenticatedData` with it.
        /// - Parameters:
        ///   - sealedBox: The sealed box.
        ///   - key: The key it was sealed with.
        ///   - authenticatedData: The data authenticated when it was sealed.
        /// - Returns: The plaintext.
        /// - Throws: `CryptoKitError.authenticationFailure` when the key, box or authenticated data do not match.
        public static func open<AuthenticatedData: DataProtocol>(
            _ sealedBox: SealedBox, using key: SymmetricKey, authenticating authenticatedData: AuthenticatedData
        ) throws -> Data {
            try withContiguousBytes(of: authenticatedData) { aad in
                try AEADBox.open(sealedBox.box, using: key, aad: aad, algorithm: .aesGCM)
            }
        }

        /// Checks and decrypts `sealedBox`.
        /// - Parameters:
        ///   - sealedBox: The sealed box.
        ///   - key: The key it was sealed with.
        /// - Returns: The plaintext.
        /// - Throws: `CryptoKitError.authenticationFailure` when the key or box do not match.
        public static func open(_ sealedBox: SealedBox, using key: SymmetricKey) throws -> Data {
            try AEADBox.open(
                sealedBox.box, using: key, aad: UnsafeRawBufferPointer(start: nil, count: 0), algorithm: .aesGCM)
        }

        private static func seal<Plaintext: DataProtocol>(
            _ message: Plaintext, using key: SymmetricKey, nonce: Nonce?, aad: UnsafeRawBufferPointer
        ) throws -> SealedBox {
            let box = try withContiguousBytes(of: message) { plaintext in
                try AEADBox.seal(
                    plaintext, using: key, nonce: nonce?.bytes, nonceByteCount: defaultNonceByteCount, aad: aad,
                    algorithm: .aesGCM)
            }
            return SealedBox(box: box)
        }
    }
}

extension AES.GCM {
    /// A GCM nonce: 12 random bytes by default; any length of 12 bytes or more from data.
    public struct Nonce: ContiguousBytes, Sequence, Sendable {
        let bytes: Data

        /// A fresh random 12-byte nonce.
        public init() {
            var bytes = Data(count: AES.GCM.defaultNonceByteCount)
            bytes.withUnsafeMutableBytes { fillNonce($0) }
            self.bytes = bytes
        }

        /// A nonce with the bytes of `data`.
        /// - Parameter data: At least 12 bytes.
        /// - Throws: `CryptoKitError.incorrectParameterSize` for fewer.
        public init<D: DataProtocol>(data: D) throws {
            guard data.count >= AES.GCM.defaultNonceByteCount else { throw CryptoKitError.incorrectParameterSize }
            bytes = Data(data)
        }

        /// Calls `body` with the nonce's bytes.
        public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
            try bytes.withUnsafeBytes(body)
        }

        /// An iterator over the nonce's bytes (an array's, as Apple declares it).
        public func makeIterator() -> Array<UInt8>.Iterator { Array(bytes).makeIterator() }
    }

    /// The result of sealing: nonce, ciphertext and tag.
    public struct SealedBox: Sendable {
        let box: AEADBox

        init(box: AEADBox) { self.box = box }

        /// `nonce ‖ ciphertext ‖ tag`, available when the nonce has the default 12 bytes.
        public var combined: Data? {
            box.nonceByteCount == AES.GCM.defaultNonceByteCount ? box.storage : nil
        }

        /// The encrypted bytes.
        public var ciphertext: Data { box.ciphertext }

        /// The 16-byte authentication tag.
        public var tag: Data { box.tag }

        /// The nonce the box was sealed with.
        public var nonce: AES.GCM.Nonce {
            // Built from stored bytes whose length was checked when the box was made.
            (try? AES.GCM.Nonce(data: box.nonce)) ?? AES.GCM.Nonce()
        }

        /// A sealed box from `nonce (12) ‖ ciphertext ‖ tag (16)`.
        /// - Parameter combined: The combined representation.
        /// - Throws: `CryptoKitError.incorrectParameterSize` when it is shorter than a nonce and a tag.
        public init<D: DataProtocol>(combined: D) throws {
            box = try AEADBox(combined: combined, nonceByteCount: AES.GCM.defaultNonceByteCount)
        }

        /// A sealed box from its parts.
        /// - Parameters:
        ///   - nonce: The nonce.
        ///   - ciphertext: The encrypted bytes.
        ///   - tag: The 16-byte tag.
        /// - Throws: `CryptoKitError.incorrectParameterSize` for a tag of another length.
        public init<C: DataProtocol, T: DataProtocol>(nonce: AES.GCM.Nonce, ciphertext: C, tag: T) throws {
            box = try AEADBox(nonce: nonce.bytes, ciphertext: ciphertext, tag: tag)
        }
    }
}
