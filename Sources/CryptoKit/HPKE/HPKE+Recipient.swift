internal import CryptoKitOpenSSL

extension HPKE {
    /// The receiving side of an HPKE context: decapsulates the sender's key, then opens messages in order.
    public struct Recipient: Sendable {
        private var context: Context

        /// Base mode.
        /// - Throws: `HPKE.Errors.inconsistentCiphersuiteAndKey` when the key does not belong to the suite's KEM;
        ///   a `CryptoKitError` when `encapsulatedKey` is not a valid public key.
        public init<SK: HPKEDiffieHellmanPrivateKey>(
            privateKey: SK, ciphersuite: Ciphersuite, info: Data, encapsulatedKey: Data
        ) throws {
            try self.init(
                mode: .base, privateKey: privateKey, ciphersuite: ciphersuite, info: info,
                encapsulatedKey: encapsulatedKey, sender: nil, psk: nil, pskID: nil)
        }

        /// PSK mode.
        public init<SK: HPKEDiffieHellmanPrivateKey>(
            privateKey: SK, ciphersuite: Ciphersuite, info: Data, encapsulatedKey: Data,
            presharedKey psk: SymmetricKey, presharedKeyIdentifier pskID: Data
        ) throws {
            try self.init(
                mode: .psk, privateKey: privateKey, ciphersuite: ciphersuite, info: info,
                encapsulatedKey: encapsulatedKey, sender: nil, psk: psk, pskID: pskID)
        }

        /// Auth mode: the messages must come from the holder of `authenticationKey`'s private key.
        public init<SK: HPKEDiffieHellmanPrivateKey>(
            privateKey: SK, ciphersuite: Ciphersuite, info: Data, encapsulatedKey: Data,
            authenticatedBy authenticationKey: SK.PublicKey
        ) throws {
            try self.init(
                mode: .auth, privateKey: privateKey, ciphersuite: ciphersuite, info: info,
                encapsulatedKey: encapsulatedKey, sender: authenticationKey, psk: nil, pskID: nil)
        }

        /// Auth-PSK mode.
        public init<SK: HPKEDiffieHellmanPrivateKey>(
            privateKey: SK, ciphersuite: Ciphersuite, info: Data, encapsulatedKey: Data,
            authenticatedBy authenticationKey: SK.PublicKey, presharedKey psk: SymmetricKey,
            presharedKeyIdentifier pskID: Data
        ) throws {
            try self.init(
                mode: .authPSK, privateKey: privateKey, ciphersuite: ciphersuite, info: info,
                encapsulatedKey: encapsulatedKey, sender: authenticationKey, psk: psk, pskID: pskID)
        }

        private init<SK: HPKEDiffieHellmanPrivateKey>(
            mode: Mode, privateKey: SK, ciphersuite: Ciphersuite, info: Data, encapsulatedKey: Data,
            sender: SK.PublicKey?, psk: SymmetricKey?, pskID: Data?
        ) throws {
            let kem = ciphersuite.kem
            let recipientBytes = Array(try privateKey.publicKey.hpkeRepresentation(kem: kem))
            let ephemeral = try SK.PublicKey(encapsulatedKey, kem: kem)
            var agreements = [try privateKey.sharedSecretFromKeyAgreement(with: ephemeral)]
            var kemContext = Array(encapsulatedKey) + recipientBytes
            if let sender {
                agreements.append(try privateKey.sharedSecretFromKeyAgreement(with: sender))
                kemContext += Array(try sender.hpkeRepresentation(kem: kem))
            }
            var dh = HPKE.concatenated(agreements)
            defer { dh.withUnsafeMutableBytes { ConstantTime.wipe($0) } }
            var sharedSecret = HPKE.kemSharedSecret(kem: kem, dh: dh, kemContext: kemContext)
            defer { sharedSecret.withUnsafeMutableBytes { ConstantTime.wipe($0) } }
            context = try HPKE.keySchedule(
                mode: mode, suite: ciphersuite, sharedSecret: sharedSecret, info: info, psk: psk, pskID: pskID)
        }

        /// Opens the next message, authenticating `aad` with it.
        /// - Throws: `CryptoKitError.authenticationFailure` when it does not open; the sequence number then stays.
        public mutating func open<C: DataProtocol, AD: DataProtocol>(_ ciphertext: C, authenticating aad: AD) throws
            -> Data
        {
            try context.open(ciphertext, authenticating: aad)
        }

        /// Opens the next message.
        /// - Throws: `CryptoKitError.authenticationFailure` when it does not open.
        public mutating func open<C: DataProtocol>(_ ciphertext: C) throws -> Data {
            try context.open(ciphertext, authenticating: Data())
        }

        /// A secret derived from the context for `context` (RFC 9180 section 5.3).
        public func exportSecret<Context: DataProtocol>(context: Context, outputByteCount: Int) throws -> SymmetricKey {
            try self.context.export(context: context, count: outputByteCount)
        }
    }
}
