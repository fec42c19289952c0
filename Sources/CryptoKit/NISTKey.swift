internal import CryptoKitOpenSSL
internal import KeychainCrypto

/// What every P-256, P-384 and P-521 public key does, for one curve; the public types delegate here.
struct NISTPublicKey: Sendable {
    let key: ECKey

    init(key: ECKey) { self.key = key }

    init(curve: ECCurve, rawRepresentation: some ContiguousBytes) throws {
        key = try rawRepresentation.withUnsafeBytes { raw in
            guard raw.count == 2 * curve.coordinateByteCount else { throw CryptoKitError.incorrectParameterSize }
            let point = [0x04] + Array(raw)
            return try translatingErrors { try point.withUnsafeBytes { try ECKey(curve: curve, publicPoint: $0) } }
        }
    }

    init(curve: ECCurve, x963Representation: some ContiguousBytes) throws {
        key = try x963Representation.withUnsafeBytes { point in
            guard point.count == 1 + 2 * curve.coordinateByteCount else {
                throw CryptoKitError.incorrectParameterSize
            }
            // Apple names a wrong leading byte as a key size error.
            guard point.first == 0x04 else { throw CryptoKitError.incorrectKeySize }
            return try translatingErrors { try ECKey(curve: curve, publicPoint: point) }
        }
    }

    init(curve: ECCurve, compressedRepresentation: some ContiguousBytes) throws {
        key = try compressedRepresentation.withUnsafeBytes { point in
            guard point.count == 1 + curve.coordinateByteCount else { throw CryptoKitError.incorrectParameterSize }
            guard point.first == 0x02 || point.first == 0x03 else { throw CryptoKitError.incorrectKeySize }
            return try translatingErrors { try ECKey(curve: curve, publicPoint: point) }
        }
    }

    init(curve: ECCurve, compactRepresentation: some ContiguousBytes) throws {
        key = try compactRepresentation.withUnsafeBytes { x in
            guard x.count == curve.coordinateByteCount else { throw CryptoKitError.incorrectParameterSize }
            return try translatingErrors { try ECKey(curve: curve, compactX: x) }
        }
    }

    init<Bytes: RandomAccessCollection>(curve: ECCurve, derRepresentation: Bytes) throws where Bytes.Element == UInt8 {
        let point = try ECKeyDocuments.publicPoint(subjectPublicKeyInfo: Array(derRepresentation))
        try self.init(curve: curve, x963Representation: point)
    }

    init(curve: ECCurve, pemRepresentation: String) throws {
        let document = try PEMDocument(parsing: pemRepresentation)
        guard document.label == "PUBLIC KEY" else { throw CryptoKitASN1Error.invalidPEMDocument }
        try self.init(curve: curve, derRepresentation: document.der)
    }

    var rawRepresentation: Data { Data(key.publicPoint.dropFirst()) }
    var x963Representation: Data { Data(key.publicPoint) }
    var compressedRepresentation: Data { Data(key.compressedPublicPoint) }
    var compactRepresentation: Data? { key.compactPublicX.map { Data($0) } }
    var derRepresentation: Data {
        // Encoding a key this process built fails only when OpenSSL cannot allocate; Apple's property cannot throw.
        (try? key.subjectPublicKeyInfo).map { Data($0) } ?? Data()
    }
    var pemRepresentation: String { PEMDocument(label: "PUBLIC KEY", der: derRepresentation).text }

    func isValidSignature(rawSignature: Data, digest: some ContiguousBytes) -> Bool {
        rawSignature.withUnsafeBytes { signature in
            digest.withUnsafeBytes { digest in key.isValidSignature(signature, forDigest: digest) }
        }
    }
}

/// What every P-256, P-384 and P-521 private key does, for one curve; the public types delegate here.
struct NISTPrivateKey: Sendable {
    let key: ECKey

    init(curve: ECCurve, compactRepresentable: Bool) {
        do {
            key = try ECKey.generate(curve, compactRepresentable: compactRepresentable)
        } catch {
            // Apple's initializer cannot throw; generation fails only if OpenSSL cannot allocate or seed.
            preconditionFailure("EC key generation failed: \(error)")
        }
    }

    init(curve: ECCurve, rawRepresentation: some ContiguousBytes) throws {
        key = try rawRepresentation.withUnsafeBytes { scalar in
            guard scalar.count == curve.coordinateByteCount else { throw CryptoKitError.incorrectParameterSize }
            return try translatingErrors { try ECKey(curve: curve, privateScalar: scalar) }
        }
    }

    /// `04 ‖ x ‖ y ‖ d`: the scalar makes the key; the point given must be its public point.
    init(curve: ECCurve, x963Representation: some ContiguousBytes) throws {
        let size = curve.coordinateByteCount
        key = try x963Representation.withUnsafeBytes { bytes in
            guard bytes.count == 1 + 3 * size else { throw CryptoKitError.incorrectParameterSize }
            guard bytes.first == 0x04 else { throw CryptoKitError.incorrectKeySize }
            let key = try translatingErrors {
                try ECKey(curve: curve, privateScalar: UnsafeRawBufferPointer(rebasing: bytes[(1 + 2 * size)...]))
            }
            let point = UnsafeRawBufferPointer(rebasing: bytes[0..<(1 + 2 * size)])
            guard key.publicPoint.withUnsafeBytes({ ConstantTime.equal($0, point) }) else {
                throw CryptoKitError.invalidParameter
            }
            return key
        }
    }

    init<Bytes: RandomAccessCollection>(curve: ECCurve, derRepresentation: Bytes) throws where Bytes.Element == UInt8 {
        var der = Array(derRepresentation)
        defer { der.withUnsafeMutableBytes { wipeBytes($0) } }
        var scalar = try ECKeyDocuments.privateScalar(der: der)
        defer { scalar.withUnsafeMutableBytes { wipeBytes($0) } }
        try self.init(curve: curve, rawRepresentation: scalar)
    }

    /// PEM with the label `PRIVATE KEY` (PKCS #8) or `EC PRIVATE KEY` (SEC 1).
    init(curve: ECCurve, pemRepresentation: String) throws {
        let document = try PEMDocument(parsing: pemRepresentation)
        guard document.label == "PRIVATE KEY" || document.label == "EC PRIVATE KEY" else {
            throw CryptoKitASN1Error.invalidPEMDocument
        }
        try self.init(curve: curve, derRepresentation: document.der)
    }

    var publicKey: NISTPublicKey {
        // The public half of a key this process holds; building it fails only when OpenSSL cannot allocate.
        NISTPublicKey(key: (try? key.publicKey) ?? key)
    }

    var rawRepresentation: Data { (try? key.privateScalar).map { Data($0.bytes) } ?? Data() }
    var x963Representation: Data { Data(key.publicPoint) + rawRepresentation }
    var derRepresentation: Data { (try? key.pkcs8PrivateKeyInfo).map { Data($0.bytes) } ?? Data() }
    var pemRepresentation: String { PEMDocument(label: "PRIVATE KEY", der: derRepresentation).text }

    func rawSignature(digest: some ContiguousBytes) throws -> Data {
        try translatingErrors { try digest.withUnsafeBytes { Data(try key.signature(forDigest: $0)) } }
    }

    func sharedSecret(with peer: NISTPublicKey) throws -> SharedSecret {
        try translatingErrors { SharedSecret(secret: try key.sharedSecret(with: peer.key)) }
    }
}

/// An ECDSA signature on one curve, kept raw (`r ‖ s`).
struct NISTSignature: Sendable {
    let raw: Data

    init(curve: ECCurve, rawRepresentation: some DataProtocol) throws {
        guard rawRepresentation.count == 2 * curve.coordinateByteCount else {
            throw CryptoKitError.incorrectParameterSize
        }
        raw = Data(rawRepresentation)
    }

    init(curve: ECCurve, derRepresentation: some DataProtocol) throws {
        let (r, s) = try ECKeyDocuments.checkSignature(der: Array(derRepresentation))
        // Well-formed DER with an integer too long for the curve is a wrong size, as swift-crypto reports it.
        guard r.count <= curve.coordinateByteCount, s.count <= curve.coordinateByteCount else {
            throw CryptoKitError.incorrectParameterSize
        }
        raw = Data(try translatingErrors { try ECKey.rawSignature(fromDER: Array(derRepresentation), curve: curve) })
    }

    init(raw: Data) { self.raw = raw }

    func derRepresentation(curve: ECCurve) -> Data {
        // r and s have the curve's size by construction; conversion fails only when OpenSSL cannot allocate.
        raw.withUnsafeBytes { raw in (try? ECKey.derSignature(fromRaw: raw, curve: curve)).map { Data($0) } } ?? Data()
    }
}
