/// Hybrid Public Key Encryption (RFC 9180): a sender encrypts to a recipient's public key through a key
/// encapsulation mechanism, a key schedule and an AEAD, in base, PSK, auth or auth-PSK mode.
public enum HPKE: Sendable {}

extension HPKE {
    /// Errors of HPKE, with Apple's cases.
    public enum Errors: Error, Equatable, Sendable {
        /// The parameters do not fit together.
        case inconsistentParameters
        /// The key does not belong to the ciphersuite's KEM.
        case inconsistentCiphersuiteAndKey
        /// The ciphersuite only exports secrets; it cannot seal or open.
        case exportOnlyMode
        /// A pre-shared key was given without its identifier, or the reverse.
        case inconsistentPSKInputs
        /// The mode needs a pre-shared key and none was given.
        case expectedPSK
        /// The mode takes no pre-shared key and one was given.
        case unexpectedPSK
        /// The context has sealed or opened as many messages as its nonce can count.
        case outOfRangeSequenceNumber
        /// The ciphertext is shorter than the AEAD's tag.
        case ciphertextTooShort
    }

    /// A key encapsulation mechanism (RFC 9180 section 7.1).
    public enum KEM: CaseIterable, Hashable, Sendable {
        /// DHKEM(P-256, HKDF-SHA256).
        case P256_HKDF_SHA256
        /// DHKEM(P-384, HKDF-SHA384).
        case P384_HKDF_SHA384
        /// DHKEM(P-521, HKDF-SHA512).
        case P521_HKDF_SHA512
        /// DHKEM(X25519, HKDF-SHA256).
        case Curve25519_HKDF_SHA256

        /// The KEM's identifier in the registry.
        public var value: UInt16 {
            switch self {
            case .P256_HKDF_SHA256: 0x0010
            case .P384_HKDF_SHA384: 0x0011
            case .P521_HKDF_SHA512: 0x0012
            case .Curve25519_HKDF_SHA256: 0x0020
            }
        }

        /// Bytes of an encapsulated key (Nenc): an uncompressed point, or an X25519 public key.
        public var nEnc: UInt16 {
            switch self {
            case .P256_HKDF_SHA256: 65
            case .P384_HKDF_SHA384: 97
            case .P521_HKDF_SHA512: 133
            case .Curve25519_HKDF_SHA256: 32
            }
        }

        /// The KDF inside the KEM.
        var kdf: KDF {
            switch self {
            case .P256_HKDF_SHA256, .Curve25519_HKDF_SHA256: .HKDF_SHA256
            case .P384_HKDF_SHA384: .HKDF_SHA384
            case .P521_HKDF_SHA512: .HKDF_SHA512
            }
        }

        /// Bytes of the shared secret the KEM produces (Nsecret).
        var sharedSecretByteCount: Int {
            switch self {
            case .P256_HKDF_SHA256, .Curve25519_HKDF_SHA256: 32
            case .P384_HKDF_SHA384: 48
            case .P521_HKDF_SHA512: 64
            }
        }
    }

    /// A key derivation function (RFC 9180 section 7.2).
    public enum KDF: CaseIterable, Hashable, Sendable {
        /// HKDF with SHA-256.
        case HKDF_SHA256
        /// HKDF with SHA-384.
        case HKDF_SHA384
        /// HKDF with SHA-512.
        case HKDF_SHA512

        /// The KDF's identifier in the registry.
        public var value: UInt16 {
            switch self {
            case .HKDF_SHA256: 0x0001
            case .HKDF_SHA384: 0x0002
            case .HKDF_SHA512: 0x0003
            }
        }

        /// Bytes of the hash's output (Nh).
        var hashByteCount: Int {
            switch self {
            case .HKDF_SHA256: 32
            case .HKDF_SHA384: 48
            case .HKDF_SHA512: 64
            }
        }

        func extract(salt: [UInt8], ikm: [UInt8]) -> [UInt8] {
            let key = SymmetricKey(data: ikm)
            switch self {
            case .HKDF_SHA256: return Array(HKDF<SHA256>.extract(inputKeyMaterial: key, salt: salt))
            case .HKDF_SHA384: return Array(HKDF<SHA384>.extract(inputKeyMaterial: key, salt: salt))
            case .HKDF_SHA512: return Array(HKDF<SHA512>.extract(inputKeyMaterial: key, salt: salt))
            }
        }

        func expand(prk: [UInt8], info: [UInt8], count: Int) -> SymmetricKey {
            switch self {
            case .HKDF_SHA256: HKDF<SHA256>.expand(pseudoRandomKey: prk, info: info, outputByteCount: count)
            case .HKDF_SHA384: HKDF<SHA384>.expand(pseudoRandomKey: prk, info: info, outputByteCount: count)
            case .HKDF_SHA512: HKDF<SHA512>.expand(pseudoRandomKey: prk, info: info, outputByteCount: count)
            }
        }
    }

    /// An authenticated encryption algorithm (RFC 9180 section 7.3).
    public enum AEAD: CaseIterable, Hashable, Sendable {
        /// AES-128-GCM.
        case AES_GCM_128
        /// AES-256-GCM.
        case AES_GCM_256
        /// ChaCha20-Poly1305.
        case chaChaPoly
        /// No encryption: the context only exports secrets.
        case exportOnly

        /// The AEAD's identifier in the registry.
        public var value: UInt16 {
            switch self {
            case .AES_GCM_128: 0x0001
            case .AES_GCM_256: 0x0002
            case .chaChaPoly: 0x0003
            case .exportOnly: 0xFFFF
            }
        }

        /// Bytes in the AEAD's key (Nk).
        public var keyByteCount: Int {
            switch self {
            case .AES_GCM_128: 16
            case .AES_GCM_256, .chaChaPoly: 32
            case .exportOnly: 0
            }
        }

        /// Bytes in the AEAD's nonce (Nn).
        public var nonceByteCount: Int { self == .exportOnly ? 0 : 12 }

        /// Bytes in the AEAD's tag (Nt).
        public var tagByteCount: Int { self == .exportOnly ? 0 : 16 }
    }

    /// A KEM, a KDF and an AEAD.
    public struct Ciphersuite: Sendable {
        /// DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-256-GCM.
        public static let P256_SHA256_AES_GCM_256 = Ciphersuite(
            kem: .P256_HKDF_SHA256, kdf: .HKDF_SHA256, aead: .AES_GCM_256)
        /// DHKEM(P-384, HKDF-SHA384), HKDF-SHA384, AES-256-GCM.
        public static let P384_SHA384_AES_GCM_256 = Ciphersuite(
            kem: .P384_HKDF_SHA384, kdf: .HKDF_SHA384, aead: .AES_GCM_256)
        /// DHKEM(P-521, HKDF-SHA512), HKDF-SHA512, AES-256-GCM.
        public static let P521_SHA512_AES_GCM_256 = Ciphersuite(
            kem: .P521_HKDF_SHA512, kdf: .HKDF_SHA512, aead: .AES_GCM_256)
        /// DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, ChaCha20-Poly1305.
        public static let Curve25519_SHA256_ChachaPoly = Ciphersuite(
            kem: .Curve25519_HKDF_SHA256, kdf: .HKDF_SHA256, aead: .chaChaPoly)

        /// The key encapsulation mechanism.
        public let kem: HPKE.KEM
        /// The key derivation function of the key schedule.
        public let kdf: HPKE.KDF
        /// The authenticated encryption algorithm.
        public let aead: HPKE.AEAD

        /// A ciphersuite of the three parts.
        public init(kem: HPKE.KEM, kdf: HPKE.KDF, aead: HPKE.AEAD) {
            self.kem = kem
            self.kdf = kdf
            self.aead = aead
        }
    }
}
