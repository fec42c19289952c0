internal import KeychainCrypto

/// The DER documents of EC keys and signatures, read as Apple's CryptoKit reads them: the structure first
/// (`CryptoKitASN1Error`), then the key bytes it holds go through the raw and X9.63 initializers, so a key of
/// another curve fails on its size (`CryptoKitError.incorrectParameterSize`) as Apple's does.
enum ECKeyDocuments {
    /// id-ecPublicKey (RFC 5480).
    private static let ecPublicKey: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]
    private static let explicitParameters: UInt8 = 0xA0
    private static let explicitPublicKey: UInt8 = 0xA1

    /// The X9.63 point of a SubjectPublicKeyInfo (RFC 5480).
    static func publicPoint(subjectPublicKeyInfo der: [UInt8]) throws -> [UInt8] {
        var info = try DERSequenceReader(DERNode.parse(der))
        _ = try namedCurve(of: info.next())
        let bits = try info.next().primitive(DERNode.bitString)
        try info.finish()
        // A point is whole octets: no unused bits.
        guard bits.first == 0 else { throw CryptoKitASN1Error.invalidASN1Object }
        return Array(bits.dropFirst())
    }

    /// The private scalar of a PKCS #8 PrivateKeyInfo or, failing that, a SEC 1 ECPrivateKey; when neither
    /// reads, SEC 1's error, as Apple's. The caller wipes the result.
    static func privateScalar(der: [UInt8]) throws -> [UInt8] {
        if let scalar = try? pkcs8Scalar(der) { return scalar }
        return try sec1Key(DERNode.parse(der)).scalar
    }

    /// Checks that `der` is an ECDSA-Sig-Value in DER: a SEQUENCE of two minimal non-negative INTEGERs.
    /// - Returns: the magnitude bytes of r and s, without the zero a high bit needs.
    static func checkSignature(der: [UInt8]) throws -> (r: ArraySlice<UInt8>, s: ArraySlice<UInt8>) {
        var signature = try DERSequenceReader(DERNode.parse(der))
        let r = try signature.next().unsignedInteger()
        let s = try signature.next().unsignedInteger()
        try signature.finish()
        return (r, s)
    }

    private static func pkcs8Scalar(_ der: [UInt8]) throws -> [UInt8] {
        var info = try DERSequenceReader(DERNode.parse(der))
        guard try info.next().unsignedInteger() == [0] else { throw CryptoKitASN1Error.invalidASN1Object }
        let curve = try namedCurve(of: info.next())
        let inner = try info.next().primitive(DERNode.octetString)
        _ = info.optional(explicitParameters)  // attributes
        try info.finish()
        var sec1 = Array(inner)
        defer { sec1.withUnsafeMutableBytes { wipeBytes($0) } }
        let key = try sec1Key(DERNode.parse(sec1))
        if let sec1Curve = key.curve, sec1Curve != curve { throw CryptoKitASN1Error.invalidASN1Object }
        return key.scalar
    }

    private static func sec1Key(_ node: DERNode) throws -> (scalar: [UInt8], curve: ArraySlice<UInt8>?) {
        var key = try DERSequenceReader(node)
        guard try key.next().unsignedInteger() == [1] else { throw CryptoKitASN1Error.invalidASN1Object }
        let scalar = Array(try key.next().primitive(DERNode.octetString))
        var curve: ArraySlice<UInt8>?
        if let parameters = key.optional(explicitParameters) {
            let wrapped = try parameters.elements(explicitParameters)
            guard wrapped.count == 1 else { throw CryptoKitASN1Error.invalidASN1Object }
            curve = try wrapped[0].primitive(DERNode.objectIdentifier)
        }
        if let publicKey = key.optional(explicitPublicKey) {
            let wrapped = try publicKey.elements(explicitPublicKey)
            guard wrapped.count == 1 else { throw CryptoKitASN1Error.invalidASN1Object }
            _ = try wrapped[0].primitive(DERNode.bitString)
        }
        try key.finish()
        return (scalar, curve)
    }

    /// The curve OID of an AlgorithmIdentifier for an EC key; which curve it names is left to the key's size.
    private static func namedCurve(of node: DERNode) throws -> ArraySlice<UInt8> {
        var algorithm = try DERSequenceReader(node)
        guard try algorithm.next().primitive(DERNode.objectIdentifier).elementsEqual(ecPublicKey) else {
            throw CryptoKitASN1Error.invalidASN1Object
        }
        let curve = try algorithm.next().primitive(DERNode.objectIdentifier)
        try algorithm.finish()
        return curve
    }
}
