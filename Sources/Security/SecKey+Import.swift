import CryptoKitOpenSSL
import Foundation
import KeychainCrypto

/// What `SecKeyCreateRandomKey`'s parameters ask for.
struct KeyGenerationRequest {
    enum Family {
        case ec(ECCurve)
        case rsa(bits: Int)
    }

    let family: Family

    /// The largest RSA key Apple makes or reads (SecRSAKey.c, kMaximumRSAKeyBits), and the smallest it makes.
    static let rsaBitRange = 512...8192

    init(_ parameters: CFDictionary) throws {
        guard let type = parameters[kSecAttrKeyType] else {
            throw SecKeyError.param("Key generation failed, error -50: kSecAttrKeyType is missing")
        }
        let size = try parameters[kSecAttrKeySizeInBits].map { try Self.integer($0, named: "key size") }
        // Apple's SecKeyCreateRandomKey (SecKey.m) compares the type with its constants by CFEqual: only the strings
        // "73" (kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyTypeEC) and "42" (kSecAttrKeyTypeRSA) make a key.
        switch type as? String {
        case "73":
            switch size ?? 256 {
            case 256: family = .ec(.p256)
            case 384: family = .ec(.p384)
            case 521: family = .ec(.p521)
            case 192, 224:
                throw SecKeyError(errSecUnimplemented, "EC keys of \(size ?? 0) bits are not supported yet")
            default: throw SecKeyError.param("Unsupported EC key size: \(size ?? 0) bits")
            }
        case "42":
            // SecRSAKey.c: any size from 512 to 8192 bits, and no default.
            guard let bits = size, Self.rsaBitRange.contains(bits) else {
                throw SecKeyError.param(
                    "failed to generate key: an RSA key needs kSecAttrKeySizeInBits from 512 to 8192, not "
                        + (size.map { "\($0)" } ?? "none"))
            }
            family = .rsa(bits: bits)
        default:
            throw SecKeyError.param("incorrect or missing kSecAttrKeyType in key generation request: \(type)")
        }
    }

    /// An integer given as a CFNumber or a CFString of digits, as Apple reads key parameters.
    static func integer(_ value: Any?, named name: String) throws -> Int {
        switch value {
        case let number as NSNumber where !number.isBoolean: return number.intValue
        case let string as String:
            if let parsed = Int(string) { return parsed }
        default: break
        }
        throw SecKeyError.param("Unsupported \(name): \(value.map { "\($0)" } ?? "(null)")")
    }
}

/// Reading keys in Apple's external representations.
enum KeyImport {
    /// A PKCS #1 RSAPublicKey, or a SubjectPublicKeyInfo holding one.
    static func rsaPublic(_ bytes: [UInt8]) throws -> RSAKey {
        if let key = try? bytes.withUnsafeBytes({ try RSAKey(pkcs1PublicKey: $0) }) { return key }
        if case .rsa(let key)? = try? bytes.withUnsafeBytes({ try PublicKeyInfo.parse($0) }) { return key }
        throw SecKeyError.param("RSA public key creation from data failed")
    }

    static func rsaPrivate(_ bytes: [UInt8]) throws -> RSAKey {
        guard let key = try? bytes.withUnsafeBytes({ try RSAKey(pkcs1PrivateKey: $0) }) else {
            throw SecKeyError.param("RSA private key creation from data failed")
        }
        return key
    }

    static func ecPublic(_ bytes: [UInt8]) throws -> ECKey {
        guard let curve = curve(coordinateBytes: (bytes.count - 1) / 2, total: bytes.count, parts: 2),
            bytes.first == 0x04, let key = try? bytes.withUnsafeBytes({ try ECKey(curve: curve, publicPoint: $0) })
        else { throw SecKeyError.param("EC public key creation from data failed") }
        return key
    }

    /// `04 ‖ X ‖ Y ‖ K`: the scalar must give the point, or the key would sign under another public key.
    static func ecPrivate(_ bytes: [UInt8]) throws -> ECKey {
        let size = (bytes.count - 1) / 3
        guard let curve = curve(coordinateBytes: size, total: bytes.count, parts: 3), bytes.first == 0x04 else {
            throw SecKeyError.param("EC private key creation from data failed")
        }
        let scalar = SecureBytes(bytes[(1 + 2 * size)...])
        guard let key = try? scalar.withUnsafeBytes({ try ECKey(curve: curve, privateScalar: $0) }),
            key.publicPoint == Array(bytes[0..<(1 + 2 * size)])
        else { throw SecKeyError.param("EC private key creation from data failed") }
        return key
    }

    private static func curve(coordinateBytes: Int, total: Int, parts: Int) -> ECCurve? {
        guard total == 1 + parts * coordinateBytes else { return nil }
        return [ECCurve.p256, .p384, .p521].first { $0.coordinateByteCount == coordinateBytes }
    }
}
