internal import CryptoKitOpenSSL

/// The parts of RFC 9180 both sides share: labeled KDF calls, DHKEM's shared secret, the key schedule and the
/// encryption context.
extension HPKE {
    enum Mode: UInt8 {
        case base = 0x00
        case psk = 0x01
        case auth = 0x02
        case authPSK = 0x03
    }

    /// `I2OSP(value, 2)`.
    static func twoBytes(_ value: Int) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }

    /// `LabeledExtract` (RFC 9180 section 4).
    static func labeledExtract(
        _ kdf: KDF, suiteID: [UInt8], salt: [UInt8], label: String, ikm: [UInt8]
    ) -> [UInt8] {
        // The labeled input holds key material (a PSK, a Diffie-Hellman output): wiped once extracted.
        var labeled = Array("HPKE-v1".utf8) + suiteID + Array(label.utf8) + ikm
        defer { labeled.withUnsafeMutableBytes { ConstantTime.wipe($0) } }
        return kdf.extract(salt: salt, ikm: labeled)
    }

    /// `LabeledExpand` (RFC 9180 section 4).
    static func labeledExpand(
        _ kdf: KDF, suiteID: [UInt8], prk: [UInt8], label: String, info: [UInt8], count: Int
    ) -> SymmetricKey {
        let labeledInfo = twoBytes(count) + Array("HPKE-v1".utf8) + suiteID + Array(label.utf8) + info
        return kdf.expand(prk: prk, info: labeledInfo, count: count)
    }

    /// DHKEM's `ExtractAndExpand`: the KEM shared secret from the Diffie-Hellman output(s) and the KEM context,
    /// in an array the caller wipes.
    static func kemSharedSecret(kem: KEM, dh: [UInt8], kemContext: [UInt8]) -> [UInt8] {
        let suiteID = Array("KEM".utf8) + twoBytes(Int(kem.value))
        var prk = labeledExtract(kem.kdf, suiteID: suiteID, salt: [], label: "eae_prk", ikm: dh)
        defer { prk.withUnsafeMutableBytes { ConstantTime.wipe($0) } }
        let secret = labeledExpand(
            kem.kdf, suiteID: suiteID, prk: prk, label: "shared_secret", info: kemContext,
            count: kem.sharedSecretByteCount)
        return secret.withUnsafeBytes { Array($0) }
    }

    /// The Diffie-Hellman results, one after the other, in an array the caller wipes. Its room is reserved
    /// first, so growing it leaves no unwiped copy behind.
    static func concatenated(_ secrets: [SharedSecret]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(secrets.reduce(0) { total, secret in total + secret.withUnsafeBytes { $0.count } })
        for secret in secrets { secret.withUnsafeBytes { bytes.append(contentsOf: $0) } }
        return bytes
    }

    /// `KeySchedule` (RFC 9180 section 5.1), checking the pre-shared key inputs against the mode. As Apple's
    /// (swift-crypto's `verifyPSKInputs`), an input counts as given when it is there, even empty: a PSK mode takes
    /// an empty key or identifier, as an iOS sender may have used one.
    static func keySchedule(
        mode: Mode, suite: Ciphersuite, sharedSecret: [UInt8], info: Data, psk: SymmetricKey?, pskID: Data?
    ) throws -> Context {
        guard (psk == nil) == (pskID == nil) else { throw Errors.inconsistentPSKInputs }
        switch mode {
        case .base, .auth: guard psk == nil else { throw Errors.unexpectedPSK }
        case .psk, .authPSK: guard psk != nil else { throw Errors.expectedPSK }
        }
        var pskBytes = psk.map { key in key.withUnsafeBytes { Array($0) } } ?? []
        defer { pskBytes.withUnsafeMutableBytes { ConstantTime.wipe($0) } }
        let pskIDBytes = pskID.map { Array($0) } ?? []
        let suiteID =
            Array("HPKE".utf8) + twoBytes(Int(suite.kem.value)) + twoBytes(Int(suite.kdf.value))
            + twoBytes(Int(suite.aead.value))
        let kdf = suite.kdf
        let pskIDHash = labeledExtract(kdf, suiteID: suiteID, salt: [], label: "psk_id_hash", ikm: pskIDBytes)
        let infoHash = labeledExtract(kdf, suiteID: suiteID, salt: [], label: "info_hash", ikm: Array(info))
        let context = [mode.rawValue] + pskIDHash + infoHash
        var secret = labeledExtract(kdf, suiteID: suiteID, salt: sharedSecret, label: "secret", ikm: pskBytes)
        defer { secret.withUnsafeMutableBytes { ConstantTime.wipe($0) } }
        let key = labeledExpand(
            kdf, suiteID: suiteID, prk: secret, label: "key", info: context, count: suite.aead.keyByteCount)
        let baseNonce = labeledExpand(
            kdf, suiteID: suiteID, prk: secret, label: "base_nonce", info: context,
            count: suite.aead.nonceByteCount)
        let exporterSecret = labeledExpand(
            kdf, suiteID: suiteID, prk: secret, label: "exp", info: context, count: kdf.hashByteCount)
        return Context(
            suite: suite, suiteID: suiteID, key: key, baseNonce: baseNonce.withUnsafeBytes { Array($0) },
            exporterSecret: exporterSecret)
    }

    /// An encryption context: key, base nonce, exporter secret and the sequence number of the next message.
    struct Context: Sendable {
        let suite: Ciphersuite
        let suiteID: [UInt8]
        let key: SymmetricKey
        let baseNonce: [UInt8]
        let exporterSecret: SymmetricKey
        private var sequenceNumber: UInt64 = 0

        init(suite: Ciphersuite, suiteID: [UInt8], key: SymmetricKey, baseNonce: [UInt8], exporterSecret: SymmetricKey)
        {
            self.suite = suite
            self.suiteID = suiteID
            self.key = key
            self.baseNonce = baseNonce
            self.exporterSecret = exporterSecret
        }

        /// `base_nonce XOR I2OSP(seq, Nn)`, then the sequence number moves on.
        private mutating func nextNonce() throws -> [UInt8] {
            guard sequenceNumber < UInt64.max else { throw Errors.outOfRangeSequenceNumber }
            var nonce = baseNonce
            withUnsafeBytes(of: sequenceNumber.bigEndian) { sequence in
                for index in 0..<8 { nonce[nonce.count - 8 + index] ^= sequence[index] }
            }
            sequenceNumber += 1
            return nonce
        }

        mutating func seal(_ message: some DataProtocol, authenticating aad: some DataProtocol) throws -> Data {
            switch suite.aead {
            case .exportOnly:
                throw Errors.exportOnlyMode
            case .AES_GCM_128, .AES_GCM_256:
                let box = try AES.GCM.seal(
                    message, using: key, nonce: AES.GCM.Nonce(data: try nextNonce()), authenticating: aad)
                return box.ciphertext + box.tag
            case .chaChaPoly:
                let box = try ChaChaPoly.seal(
                    message, using: key, nonce: ChaChaPoly.Nonce(data: try nextNonce()), authenticating: aad)
                return box.ciphertext + box.tag
            }
        }

        mutating func open(_ ciphertext: some DataProtocol, authenticating aad: some DataProtocol) throws -> Data {
            guard suite.aead != .exportOnly else { throw Errors.exportOnlyMode }
            guard ciphertext.count >= suite.aead.tagByteCount else { throw Errors.ciphertextTooShort }
            let bytes = Data(ciphertext)
            let body = bytes.prefix(bytes.count - suite.aead.tagByteCount)
            let tag = bytes.suffix(suite.aead.tagByteCount)
            // The sequence number advances only when a message opens (RFC 9180 section 5.2).
            var next = self
            let nonce = try next.nextNonce()
            let plaintext: Data
            switch suite.aead {
            case .AES_GCM_128, .AES_GCM_256:
                let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: nonce), ciphertext: body, tag: tag)
                plaintext = try AES.GCM.open(box, using: key, authenticating: aad)
            case .chaChaPoly:
                let box = try ChaChaPoly.SealedBox(nonce: ChaChaPoly.Nonce(data: nonce), ciphertext: body, tag: tag)
                plaintext = try ChaChaPoly.open(box, using: key, authenticating: aad)
            case .exportOnly:
                throw Errors.exportOnlyMode
            }
            self = next
            return plaintext
        }

        /// `Export` (RFC 9180 section 5.3).
        func export(context: some DataProtocol, count: Int) throws -> SymmetricKey {
            guard count >= 0, count <= 255 * suite.kdf.hashByteCount else { throw Errors.inconsistentParameters }
            var secret = exporterSecret.withUnsafeBytes { Array($0) }
            defer { secret.withUnsafeMutableBytes { ConstantTime.wipe($0) } }
            return HPKE.labeledExpand(
                suite.kdf, suiteID: suiteID, prk: secret, label: "sec", info: Array(context), count: count)
        }
    }
}

extension HPKE.Context: CustomReflectable {
    /// Nothing: the key, base nonce and exporter secret must not appear in `dump` or a debugger's summary.
    var customMirror: Mirror { Mirror(self, children: []) }
}
