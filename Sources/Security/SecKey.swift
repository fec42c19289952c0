import CryptoKitOpenSSL
import Foundation
import KeychainCrypto

/// A cryptographic key: an EC key on P-256, P-384 or P-521, or an RSA key; a key pair (private) or a public
/// key. Made by `SecKeyCreateRandomKey`, `SecKeyCreateWithData` or `SecKeyCopyPublicKey`; immutable.
///
/// A private key made with `kSecAttrTokenIDSecureEnclave` holds no private bytes here: `material` is its public
/// key and `enclave` the key in the enclave backend, which signs and agrees for it.
public final class SecKey: Hashable, CustomStringConvertible, @unchecked Sendable {  // safe: immutable
    let material: AsymmetricKey
    /// Whether the key holds its private half (for an enclave key, in the enclave).
    let isPrivate: Bool
    /// The enclave's key, for a private key made with `kSecAttrTokenIDSecureEnclave`; nil otherwise.
    let enclave: EnclaveKeyBinding?

    init(_ material: AsymmetricKey) {
        self.material = material
        enclave = nil
        switch material {
        case .ec(let key): isPrivate = key.hasPrivateKey
        case .rsa(let key): isPrivate = key.hasPrivateKey
        }
    }

    /// The private key of an enclave key, whose public key is `publicKey`.
    init(enclave: EnclaveKeyBinding, publicKey: ECKey) {
        material = .ec(publicKey)
        self.enclave = enclave
        isPrivate = true
    }

    /// The public key a DER SubjectPublicKeyInfo holds (RSA, or EC on P-256, P-384, P-521); nil for anything
    /// else. Certificates hand out their key through this.
    package convenience init?(subjectPublicKeyInfo der: [UInt8]) {
        guard let material = try? der.withUnsafeBytes({ try PublicKeyInfo.parse($0) }) else { return nil }
        self.init(material)
    }

    /// The public key's external representation: `04 ‖ X ‖ Y` for EC, a PKCS #1 RSAPublicKey for RSA.
    var publicExternalRepresentation: [UInt8] {
        switch material {
        case .ec(let key): key.publicPoint
        case .rsa(let key): (try? key.pkcs1PublicKey) ?? []
        }
    }

    /// The DER SubjectPublicKeyInfo of the public key.
    package var subjectPublicKeyInfo: [UInt8]? {
        switch material {
        case .ec(let key): try? key.subjectPublicKeyInfo
        case .rsa(let key): try? key.subjectPublicKeyInfo
        }
    }

    /// Bits in the key: the curve's size or the modulus's exact bit count (not its block size times 8), as Apple's
    /// SecRSAKey.c reports it since macOS 14 and iOS 17; RSA with AES-GCM picks its session key size by it.
    var sizeInBits: Int {
        switch material {
        case .ec(let key):
            switch key.curve {
            case .p256: 256
            case .p384: 384
            case .p521: 521
            }
        case .rsa(let key): key.modulusBitCount
        }
    }

    /// `kSecAttrCanDecrypt`: private keys, and RSA public keys too, whose dictionary Apple sets it in (SecRSAKey.c).
    var canDecrypt: Bool {
        switch material {
        case .ec: isPrivate
        case .rsa: true
        }
    }

    /// `kSecAttrCanDerive`: EC private keys only; Apple clears it for EC public keys and every RSA key.
    var canDerive: Bool {
        switch material {
        case .ec: isPrivate
        case .rsa: false
        }
    }

    /// `kSecAttrKeyType`'s value for the key.
    var keyType: CFString {
        switch material {
        case .ec: kSecAttrKeyTypeECSECPrimeRandom
        case .rsa: kSecAttrKeyTypeRSA
        }
    }

    public static func == (lhs: SecKey, rhs: SecKey) -> Bool {
        lhs === rhs
            || (lhs.isPrivate == rhs.isPrivate && lhs.keyType == rhs.keyType
                && lhs.publicExternalRepresentation == rhs.publicExternalRepresentation)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(isPrivate)
        hasher.combine(publicExternalRepresentation)
    }

    /// Public facts only: never private key bytes.
    public var description: String {
        let family: String
        switch material {
        case .ec: family = isPrivate ? "ECPrivateKey" : "ECPublicKey"
        case .rsa: family = isPrivate ? "RSAPrivateKey" : "RSAPublicKey"
        }
        let address = String(UInt(bitPattern: ObjectIdentifier(self).hashValue), radix: 16)
        return "<SecKeyRef key type: \(family), block size: \(sizeInBits) bits, addr: 0x\(address)>"
    }
}

/// The type identifier of `SecKey`.
public func SecKeyGetTypeID() -> CFTypeID { SecTypeIdentifiers.key }
