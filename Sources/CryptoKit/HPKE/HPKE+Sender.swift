internal import CryptoKitOpenSSL

extension HPKE {
    /// The sending side of an HPKE context: encapsulates a key to the recipient, then seals messages in order.
    public struct Sender: Sendable {
        /// The encapsulated key (`enc`) to send to the recipient with the messages.
        public let encapsulatedKey: Data
        private var context: Context

        /// Base mode: encrypts to `recipientKey`.
        /// - Throws: `HPKE.Errors.inconsistentCiphersuiteAndKey` when the key does not belong to the suite's KEM.
        public init<PK: HPKEDiffieHellmanPublicKey>(recipientKey: PK, ciphersuite: Ciphersuite, info: Data) throws {
            try self.init(
                mode: .base, recipientKey: recipientKey, ciphersuite: ciphersuite, info: info,
                sender: PK.EphemeralPrivateKey?.none, psk: nil, pskID: nil)
        }

        /// PSK mode: encrypts to `recipientKey`, binding a pre-shared key.
        /// - Throws: `HPKE.Errors.inconsistentPSKInputs` or `.expectedPSK` for missing pre-shared key inputs.
        public init<PK: HPKEDiffieHellmanPublicKey>(
            recipientKey: PK, ciphersuite: Ciphersuite, info: Data, presharedKey psk: SymmetricKey,
            presharedKeyIdentifier pskID: Data
        ) throws {
            try self.init(
                mode: .psk, recipientKey: recipientKey, ciphersuite: ciphersuite, info: info,
                sender: PK.EphemeralPrivateKey?.none, psk: psk, pskID: pskID)
        }

        /// Auth mode: encrypts to `recipientKey`, authenticated by the sender's key.
        public init<SK: HPKEDiffieHellmanPrivateKey>(
            recipientKey: SK.PublicKey, ciphersuite: Ciphersuite, info: Data, authenticatedBy authenticationKey: SK
        ) throws {
            try self.init(
                mode: .auth, recipientKey: recipientKey, ciphersuite: ciphersuite, info: info,
                sender: authenticationKey, psk: nil, pskID: nil)
        }

        /// Auth-PSK mode: encrypts to `recipientKey`, authenticated by the sender's key and a pre-shared key.
        public init<SK: HPKEDiffieHellmanPrivateKey>(
            recipientKey: SK.PublicKey, ciphersuite: Ciphersuite, info: Data, authenticatedBy authenticationKey: SK,
            presharedKey psk: SymmetricKey, presharedKeyIdentifier pskID: Data
        ) throws {
            try self.init(
                mode: .authPSK, recipientKey: recipientKey, ciphersuite: ciphersuite, info: info,
                sender: authenticationKey, psk: psk, pskID: pskID)
        }

        /// Every mode; `ephemeralKey` is drawn fresh unless given (known-answer tests give RFC 9180's).
        init<SK: HPKEDiffieHellmanPrivateKey>(
            mode: Mode, recipientKey: SK.PublicKey, ciphersuite: Ciphersuite, info: Data, sender: SK?,
            psk: SymmetricKey?, pskID: Data?, ephemeralKey: SK.PublicKey.EphemeralPrivateKey? = nil
        ) throws {
            let kem = ciphersuite.kem
            let recipientBytes = Array(try recipientKey.hpkeRepresentation(kem: kem))
            let ephemeral = ephemeralKey ?? SK.PublicKey.EphemeralPrivateKey()
            let enc = try ephemeral.publicKey.hpkeRepresentation(kem: kem)
            var agreements = [try ephemeral.sharedSecretFromKeyAgreement(with: recipientKey)]
            var kemContext = Array(enc) + recipientBytes
            if let sender {
                agreements.append(try sender.sharedSecretFromKeyAgreement(with: recipientKey))
                kemContext += Array(try sender.publicKey.hpkeRepresentation(kem: kem))
            }
            var dh = HPKE.concatenated(agreements)
            defer { dh.withUnsafeMutableBytes { ConstantTime.wipe($0) } }
            var sharedSecret = HPKE.kemSharedSecret(kem: kem, dh: dh, kemContext: kemContext)
            defer { sharedSecret.withUnsafeMutableBytes { ConstantTime.wipe($0) } }
            encapsulatedKey = enc
            context = try HPKE.keySchedule(
                mode: mode, suite: ciphersuite, sharedSecret: sharedSecret, info: info, psk: psk, pskID: pskID)
        }

        /// Seals the next message, authenticating `aad` with it.
        /// - Returns: The ciphertext followed by the tag.
        /// - Throws: `HPKE.Errors.exportOnlyMode` for an export-only suite.
        public mutating func seal<M: DataProtocol, AD: DataProtocol>(_ msg: M, authenticating aad: AD) throws -> Data {
            try context.seal(msg, authenticating: aad)
        }

        /// Seals the next message.
        /// - Returns: The ciphertext followed by the tag.
        /// - Throws: `HPKE.Errors.exportOnlyMode` for an export-only suite.
        public mutating func seal<M: DataProtocol>(_ msg: M) throws -> Data {
            try context.seal(msg, authenticating: Data())
        }

        /// A secret derived from the context for `context` (RFC 9180 section 5.3).
        /// - Throws: `HPKE.Errors.inconsistentParameters` for more than 255 hash lengths.
        public func exportSecret<Context: DataProtocol>(context: Context, outputByteCount: Int) throws -> SymmetricKey {
            try self.context.export(context: context, count: outputByteCount)
        }
    }
}
