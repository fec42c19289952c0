@_implementationOnly import COpenSSL

/// The NIST prime curves CryptoKit offers, with the digest Apple pairs with each for signing.
package enum ECCurve: Sendable {
    case p256
    case p384
    case p521

    /// Bytes in one coordinate or in the private scalar.
    package var coordinateByteCount: Int {
        switch self {
        case .p256: 32
        case .p384: 48
        case .p521: 66
        }
    }

    /// OpenSSL's group name, as the `group` key parameter takes it.
    var groupName: String {
        switch self {
        case .p256: "prime256v1"
        case .p384: "secp384r1"
        case .p521: "secp521r1"
        }
    }

    var nid: Int32 {
        switch self {
        case .p256: NID_X9_62_prime256v1
        case .p384: NID_secp384r1
        case .p521: NID_secp521r1
        }
    }

    /// The curve a group name (OpenSSL's or NIST's) denotes.
    init?(groupName: String) {
        switch groupName {
        case "prime256v1", "P-256", "secp256r1": self = .p256
        case "secp384r1", "P-384": self = .p384
        case "secp521r1", "P-521": self = .p521
        default: return nil
        }
    }
}

/// One `EC_GROUP` with a `BN_CTX` for point arithmetic, freed together. Made per operation that needs
/// point arithmetic (key import, compact points), never on the signing or agreement path.
final class ECGroupArithmetic {
    let curve: ECCurve
    let group: OpaquePointer
    let bignumContext: OpaquePointer

    init(_ curve: ECCurve) throws {
        guard let group = EC_GROUP_new_by_curve_name(curve.nid) else { throw OpenSSLErrorQueue.failure() }
        guard let bignumContext = BN_CTX_new() else {
            EC_GROUP_free(group)
            throw OpenSSLErrorQueue.failure()
        }
        self.curve = curve
        self.group = group
        self.bignumContext = bignumContext
    }

    deinit {
        BN_CTX_free(bignumContext)
        EC_GROUP_free(group)
    }

    /// A point from its SEC 1 encoding (uncompressed or compressed); nil when it is not on the curve.
    func point(_ encoded: UnsafeRawBufferPointer) -> ECPoint? {
        guard let point = ECPoint(group: group),
            EC_POINT_oct2point(
                group, point.pointer, encoded.bindMemory(to: UInt8.self).baseAddress, encoded.count, bignumContext)
                == 1, EC_POINT_is_at_infinity(group, point.pointer) == 0
        else {
            ERR_clear_error()
            return nil
        }
        return point
    }

    /// `scalar` × G, the public point of a private scalar; nil when the scalar is 0 or not below the order.
    func publicPoint(ofScalar scalar: UnsafeRawBufferPointer) -> ECPoint? {
        guard let d = BN_secure_new() else { return nil }
        defer { BN_clear_free(d) }
        guard BN_bin2bn(scalar.bindMemory(to: UInt8.self).baseAddress, Int32(scalar.count), d) != nil,
            BN_is_zero(d) == 0, BN_cmp(d, EC_GROUP_get0_order(group)) < 0
        else { return nil }
        guard let point = ECPoint(group: group), EC_POINT_mul(group, point.pointer, d, nil, nil, bignumContext) == 1
        else { return nil }
        return point
    }

    /// The SEC 1 encoding of `point`, uncompressed (`04 ‖ x ‖ y`) or compressed (`02/03 ‖ x`).
    func encode(_ point: ECPoint, compressed: Bool) -> [UInt8] {
        let size = 1 + curve.coordinateByteCount * (compressed ? 1 : 2)
        var output = [UInt8](repeating: 0, count: size)
        let form = compressed ? POINT_CONVERSION_COMPRESSED : POINT_CONVERSION_UNCOMPRESSED
        // A point made by this group always encodes at the group's size; point2oct fails only out of memory.
        _ = EC_POINT_point2oct(group, point.pointer, form, &output, size, bignumContext)
        return output
    }

    /// Whether `y` ≤ `p − y` for the point's coordinate `y`: the condition under which the x coordinate alone
    /// (the compact representation, draft-jivsov-ecc-compact) names the point.
    func isCompactRepresentable(_ point: ECPoint) -> Bool {
        let uncompressed = encode(point, compressed: false)
        let size = curve.coordinateByteCount
        return uncompressed.withUnsafeBytes { bytes in
            let y = BN_bin2bn(bytes.bindMemory(to: UInt8.self).baseAddress! + 1 + size, Int32(size), nil)
            let p = BN_new()
            let a = BN_new()
            let b = BN_new()
            let negated = BN_new()
            defer {
                for number in [y, p, a, b, negated] { BN_free(number) }
            }
            guard EC_GROUP_get_curve(group, p, a, b, bignumContext) == 1,
                BN_sub(negated, p, y) == 1
            else { return false }
            return BN_cmp(y, negated) <= 0
        }
    }

    /// The point with x coordinate `x` whose y is the smaller of the two candidates `y` and `p − y`.
    func compactPoint(x: UnsafeRawBufferPointer) -> ECPoint? {
        guard x.count == curve.coordinateByteCount else { return nil }
        var compressed = [UInt8](repeating: 0x02, count: 1)
        compressed += x
        guard let candidate = compressed.withUnsafeBytes({ point($0) }) else { return nil }
        if isCompactRepresentable(candidate) { return candidate }
        compressed[0] = 0x03
        return compressed.withUnsafeBytes { point($0) }
    }
}

/// Owns one `EC_POINT`.
final class ECPoint {
    let pointer: OpaquePointer

    init?(group: OpaquePointer) {
        guard let point = EC_POINT_new(group) else { return nil }
        pointer = point
    }

    deinit { EC_POINT_free(pointer) }
}
