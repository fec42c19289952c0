import KeychainCrypto

@_implementationOnly import COpenSSL

/// A P-256, P-384 or P-521 key pair or public key in an `EVP_PKEY`, immutable once made. OpenSSL allows
/// concurrent signing, verification and derivation with one key.
package final class ECKey: @unchecked Sendable {  // safe: the EVP_PKEY is never modified after init
    package let curve: ECCurve
    /// Whether the private scalar is present.
    package let hasPrivateKey: Bool
    let pkey: OpaquePointer
    /// The uncompressed public point, `04 ‖ x ‖ y`.
    package let publicPoint: [UInt8]

    private init(curve: ECCurve, pkey: OpaquePointer, hasPrivateKey: Bool, publicPoint: [UInt8]) {
        self.curve = curve
        self.pkey = pkey
        self.hasPrivateKey = hasPrivateKey
        self.publicPoint = publicPoint
    }

    deinit { EVP_PKEY_free(pkey) }

    /// A new random key pair. With `compactRepresentable`, keys are drawn until the public point's y is the
    /// smaller candidate, so that the x coordinate alone represents it (as Apple's generator does).
    package static func generate(_ curve: ECCurve, compactRepresentable: Bool) throws -> ECKey {
        let arithmetic = try ECGroupArithmetic(curve)
        for _ in 0..<128 {
            let scalar = try SecureBytes(count: curve.coordinateByteCount) { bytes in
                try SystemRandom.fill(bytes)
                // P-521's order has 521 bits in 66 bytes: keep the top byte's one significant bit so that a draw
                // is below the order about half the time instead of once in 128.
                if curve == .p521 { bytes[0] &= 0x01 }
            }
            let key: ECKey
            do {
                key = try scalar.withUnsafeBytes { bytes throws in
                    try ECKey(curve: curve, privateScalar: bytes, arithmetic: arithmetic)
                }
            } catch BackendError.invalidParameter {
                continue  // a draw of 0 or above the order: draw again
            }
            if !compactRepresentable
                || key.publicPoint.withUnsafeBytes({ arithmetic.point($0) }).map(
                    arithmetic.isCompactRepresentable) == true
            {
                return key
            }
        }
        throw BackendError.library(code: 0)
    }

    /// The key pair of a private scalar (big-endian, exactly the curve's size).
    /// - Throws: `BackendError.incorrectParameterSize` for another length, `.invalidParameter` for 0 or a
    ///   scalar not below the group order.
    package convenience init(curve: ECCurve, privateScalar: UnsafeRawBufferPointer) throws {
        try self.init(curve: curve, privateScalar: privateScalar, arithmetic: ECGroupArithmetic(curve))
    }

    private convenience init(curve: ECCurve, privateScalar: UnsafeRawBufferPointer, arithmetic: ECGroupArithmetic)
        throws
    {
        guard privateScalar.count == curve.coordinateByteCount else { throw BackendError.incorrectParameterSize }
        guard let point = arithmetic.publicPoint(ofScalar: privateScalar) else { throw BackendError.invalidParameter }
        let publicPoint = arithmetic.encode(point, compressed: false)
        let pkey = try Self.build(curve: curve, publicPoint: publicPoint, privateScalar: privateScalar)
        self.init(curve: curve, pkey: pkey, hasPrivateKey: true, publicPoint: publicPoint)
    }

    /// A public key from a SEC 1 point encoding: uncompressed (`04 ‖ x ‖ y`) or compressed (`02/03 ‖ x`).
    /// - Throws: `BackendError.incorrectParameterSize` for a length that fits neither, `.invalidParameter`
    ///   for a point not on the curve.
    package convenience init(curve: ECCurve, publicPoint encoded: UnsafeRawBufferPointer) throws {
        let size = curve.coordinateByteCount
        guard encoded.count == 1 + 2 * size || encoded.count == 1 + size else {
            throw BackendError.incorrectParameterSize
        }
        let arithmetic = try ECGroupArithmetic(curve)
        guard let point = arithmetic.point(encoded) else { throw BackendError.invalidParameter }
        try self.init(curve: curve, point: point, arithmetic: arithmetic)
    }

    /// A public key from its x coordinate alone (the compact representation).
    package convenience init(curve: ECCurve, compactX: UnsafeRawBufferPointer) throws {
        guard compactX.count == curve.coordinateByteCount else { throw BackendError.incorrectParameterSize }
        let arithmetic = try ECGroupArithmetic(curve)
        guard let point = arithmetic.compactPoint(x: compactX) else { throw BackendError.invalidParameter }
        try self.init(curve: curve, point: point, arithmetic: arithmetic)
    }

    private convenience init(curve: ECCurve, point: ECPoint, arithmetic: ECGroupArithmetic) throws {
        let publicPoint = arithmetic.encode(point, compressed: false)
        let pkey = try Self.build(curve: curve, publicPoint: publicPoint, privateScalar: nil)
        self.init(curve: curve, pkey: pkey, hasPrivateKey: false, publicPoint: publicPoint)
    }

    /// The public half of this key.
    package var publicKey: ECKey {
        get throws {
            let pkey = try Self.build(curve: curve, publicPoint: publicPoint, privateScalar: nil)
            return ECKey(curve: curve, pkey: pkey, hasPrivateKey: false, publicPoint: publicPoint)
        }
    }

    /// The compressed public point, `02/03 ‖ x`.
    package var compressedPublicPoint: [UInt8] {
        var compressed = Array(publicPoint[0...curve.coordinateByteCount])
        compressed[0] = 0x02 | (publicPoint[publicPoint.count - 1] & 1)
        return compressed
    }

    /// The x coordinate when it alone names the public point (see `isCompactRepresentable`), else nil.
    package var compactPublicX: [UInt8]? {
        guard let arithmetic = try? ECGroupArithmetic(curve),
            let point = publicPoint.withUnsafeBytes({ arithmetic.point($0) }),
            arithmetic.isCompactRepresentable(point)
        else { return nil }
        return Array(publicPoint[1...curve.coordinateByteCount])
    }

    /// The private scalar, big-endian at the curve's size, in wiped-on-free memory.
    package var privateScalar: SecureBytes {
        get throws {
            guard hasPrivateKey else { throw BackendError.invalidParameter }
            var scalar: OpaquePointer? = nil
            guard EVP_PKEY_get_bn_param(pkey, "priv", &scalar) == 1, let scalar else {
                throw OpenSSLErrorQueue.failure()
            }
            defer { BN_clear_free(scalar) }
            let size = curve.coordinateByteCount
            return try SecureBytes(count: size) { (output: UnsafeMutableRawBufferPointer) throws in
                guard BN_bn2binpad(scalar, output.bindMemory(to: UInt8.self).baseAddress, Int32(size)) == size else {
                    throw OpenSSLErrorQueue.failure()
                }
            }
        }
    }

    /// Builds an `EVP_PKEY` from the `group`, `pub` and (for a key pair) `priv` parameters.
    private static func build(curve: ECCurve, publicPoint: [UInt8], privateScalar: UnsafeRawBufferPointer?)
        throws -> OpaquePointer
    {
        guard let builder = OSSL_PARAM_BLD_new() else { throw OpenSSLErrorQueue.failure() }
        defer { OSSL_PARAM_BLD_free(builder) }
        var scalar: OpaquePointer? = nil
        defer { if let scalar { BN_clear_free(scalar) } }
        if let privateScalar {
            scalar = BN_secure_new()
            guard let scalar,
                BN_bin2bn(privateScalar.bindMemory(to: UInt8.self).baseAddress, Int32(privateScalar.count), scalar)
                    != nil,
                OSSL_PARAM_BLD_push_BN(builder, ParameterName.privateKey, scalar) == 1
            else { throw OpenSSLErrorQueue.failure() }
        }
        // The builder copies strings and octets only in OSSL_PARAM_BLD_to_param: both buffers must live until then.
        let parameters: UnsafeMutablePointer<OSSL_PARAM>? = curve.groupName.withCString { group in
            publicPoint.withUnsafeBytes { point in
                guard OSSL_PARAM_BLD_push_utf8_string(builder, ParameterName.group, group, 0) == 1,
                    OSSL_PARAM_BLD_push_octet_string(builder, ParameterName.publicKey, point.baseAddress, point.count)
                        == 1
                else { return nil }
                return OSSL_PARAM_BLD_to_param(builder)
            }
        }
        guard let parameters else { throw OpenSSLErrorQueue.failure() }
        defer { OSSL_PARAM_free(parameters) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else { throw OpenSSLErrorQueue.failure() }
        defer { EVP_PKEY_CTX_free(context) }
        var pkey: OpaquePointer? = nil
        // EVP_PKEY_KEYPAIR and EVP_PKEY_PUBLIC_KEY are composite macros Swift does not import.
        let selection: Int32 = privateScalar == nil ? 0x86 : 0x87
        guard EVP_PKEY_fromdata_init(context) == 1,
            EVP_PKEY_fromdata(context, &pkey, selection, parameters) == 1, let pkey
        else { throw OpenSSLErrorQueue.failure() }
        return pkey
    }
}

/// Parameter names for the builder, which keeps the name pointers (not copies) until `OSSL_PARAM_BLD_to_param`:
/// they must outlive the call that pushes them, as a bridged Swift string does not.
private enum ParameterName {
    static var group: UnsafePointer<CChar> { cString("group") }
    static var publicKey: UnsafePointer<CChar> { cString("pub") }
    static var privateKey: UnsafePointer<CChar> { cString("priv") }

    private static func cString(_ literal: StaticString) -> UnsafePointer<CChar> {
        // A string literal is stored once for the program's life, NUL-terminated.
        UnsafeRawPointer(literal.utf8Start).assumingMemoryBound(to: CChar.self)
    }
}
