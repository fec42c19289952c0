import CryptoKitOpenSSL
import Foundation
import KeychainCrypto

// PKCS #8 PrivateKeyInfo (RFC 5208), the form PKCS#12 files and PEM "PRIVATE KEY" blocks hold a private key in:
//   SEQUENCE { INTEGER version, SEQUENCE { OBJECT IDENTIFIER algorithm, parameters }, OCTET STRING key, ... }
// The key bytes are secret: they are read in place, never copied into an array that is not wiped.

extension SecKey {
    /// The private key a DER PKCS #8 PrivateKeyInfo holds: RSA (1024 to 8192 bits, its factors checked against
    /// its modulus), or EC on P-256, P-384 or P-521 (the public key is computed from the scalar).
    /// - Throws: `SecKeyError` with `errSecDecode` for DER that does not parse, another algorithm or curve, or a
    ///   key whose parts do not agree.
    package convenience init(pkcs8PrivateKey der: SecureBytes) throws {
        let material = try der.withUnsafeBytes { bytes throws -> AsymmetricKey in
            guard let info = PrivateKeyInfo(bytes) else { throw SecKeyError.decode("not a PKCS #8 PrivateKeyInfo") }
            switch info.algorithm {
            case .rsa:
                let body = UnsafeRawBufferPointer(rebasing: bytes[info.privateKey])
                guard let key = try? RSAKey(pkcs1PrivateKey: body) else {
                    throw SecKeyError.decode("the PKCS #8 RSA private key does not parse or is inconsistent")
                }
                return .rsa(key)
            case .ec:
                for curve in [ECCurve.p256, .p384, .p521] {
                    if let key = try? ECKey.parsing(privateKeyDER: bytes, curve: curve) { return .ec(key) }
                }
                throw SecKeyError.decode("the PKCS #8 EC private key is not on P-256, P-384 or P-521")
            }
        }
        self.init(material)
    }

    /// The private key as a DER PKCS #8 PrivateKeyInfo, in a buffer wiped when freed; nil for a public key.
    package var pkcs8PrivateKey: SecureBytes? {
        guard isPrivate else { return nil }
        switch material {
        case .ec(let key): return try? key.pkcs8PrivateKeyInfo
        case .rsa(let key):
            guard let pkcs1 = try? key.pkcs1PrivateKey else { return nil }
            return PrivateKeyInfo.wrappingRSA(pkcs1)
        }
    }
}

extension SecKeyError {
    static func decode(_ reason: String) -> SecKeyError { SecKeyError(errSecDecode, reason) }
}

/// The parts of a PrivateKeyInfo this code needs: the algorithm and where the private key's octets are.
private struct PrivateKeyInfo {
    enum Algorithm { case rsa, ec }

    /// rsaEncryption, 1.2.840.113549.1.1.1.
    static let rsaEncryption: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]
    /// id-ecPublicKey, 1.2.840.10045.2.1.
    static let ecPublicKey: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]

    let algorithm: Algorithm
    /// The content of the privateKey OCTET STRING, as offsets into the parsed bytes.
    let privateKey: Range<Int>

    init?(_ bytes: UnsafeRawBufferPointer) {
        guard let outer = Self.element(bytes, at: 0, tag: 0x30), outer.end == bytes.count,
            let version = Self.element(bytes, at: outer.content.lowerBound, tag: 0x02),
            version.content.count == 1, bytes[version.content.lowerBound] <= 1,
            let identifier = Self.element(bytes, at: version.end, tag: 0x30),
            let oid = Self.element(bytes, at: identifier.content.lowerBound, tag: 0x06),
            let key = Self.element(bytes, at: identifier.end, tag: 0x04), key.end <= outer.end
        else { return nil }
        switch Array(bytes[oid.content]) {
        case Self.rsaEncryption: algorithm = .rsa
        case Self.ecPublicKey: algorithm = .ec
        default: return nil
        }
        privateKey = key.content
    }

    /// A PKCS #1 RSAPrivateKey wrapped in a PrivateKeyInfo, built in wiped memory.
    static func wrappingRSA(_ pkcs1: SecureBytes) -> SecureBytes {
        let identifier: [UInt8] = [0x30, 0x0D, 0x06, 0x09] + rsaEncryption + [0x05, 0x00]
        let octets = header(tag: 0x04, length: pkcs1.count)
        let bodyLength = 3 + identifier.count + octets.count + pkcs1.count
        let outer = header(tag: 0x30, length: bodyLength)
        return SecureBytes(count: outer.count + bodyLength) { output in
            var offset = 0
            for part in [outer, [0x02, 0x01, 0x00], identifier, octets] {
                UnsafeMutableRawBufferPointer(rebasing: output[offset..<(offset + part.count)]).copyBytes(from: part)
                offset += part.count
            }
            pkcs1.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: output[offset...]).copyBytes(from: $0) }
        }
    }

    private static func header(tag: UInt8, length: Int) -> [UInt8] {
        guard length >= 0x80 else { return [tag, UInt8(length)] }
        var lengthBytes: [UInt8] = []
        var remaining = length
        while remaining > 0 {
            lengthBytes.insert(UInt8(remaining & 0xFF), at: 0)
            remaining >>= 8
        }
        return [tag, 0x80 | UInt8(lengthBytes.count)] + lengthBytes
    }

    /// The DER element with `tag` at `offset`: its content range and where it ends; nil when it does not fit.
    private static func element(_ bytes: UnsafeRawBufferPointer, at offset: Int, tag: UInt8)
        -> (content: Range<Int>, end: Int)?
    {
        guard offset + 2 <= bytes.count, bytes[offset] == tag else { return nil }
        let first = Int(bytes[offset + 1])
        var length = first
        var start = offset + 2
        if first >= 0x80 {
            let count = first & 0x7F
            guard (1...4).contains(count), start + count <= bytes.count else { return nil }
            length = 0
            for index in 0..<count { length = length << 8 | Int(bytes[start + index]) }
            guard length >= 0x80 else { return nil }
            start += count
        }
        guard length <= bytes.count - start else { return nil }
        return (start..<(start + length), start + length)
    }
}
