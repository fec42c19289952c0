package import CryptoKitOpenSSL
import KeychainCore
package import KeychainCrypto

/// A software enclave key as stored:
///
///     "KSWE" ‖ u8 version (1) ‖ u8 use (1 signing, 2 key agreement, 3 both) ‖ public point (65)
///     ‖ u8 len ‖ protection class ‖ u64 flags ‖ u32 len ‖ sealed auth value ‖ outer box
///
/// The private scalar is sealed twice with AES-256-GCM, both times authenticating everything before the outer box
/// (the header, the access control and the sealed auth value): the inner box under the key's 32-byte random auth
/// value (used for this one seal), which the keychain opens only as the access control allows; the outer box,
/// holding the inner one, under the home's wrapping key (HKDF of the device key), so that restoring a key checks
/// that it is intact and belongs to this home without asking anyone. The keychain seals and opens the outer box
/// itself, so the wrapping key never leaves it. The scalar is opened for each use only.
struct SecureEnclaveSoftwareKey: SecureEnclaveKeyHandle {
    let publicPoint: [UInt8]
    let access: SecureEnclaveKey.Access?
    let serialized: [UInt8]
    var isHardwareBacked: Bool { false }
    private let use: SecureEnclaveKeyUse
    /// The authenticated bytes: everything before the outer box.
    private let header: [UInt8]
    /// The scalar sealed under the auth value (out of the outer box, still sealed).
    private let innerBox: [UInt8]

    private static let magic: [UInt8] = Array("KSWE".utf8)
    private static let version: UInt8 = 1
    private static let pointSize = 65

    /// Seals a new key's `scalar`.
    init(
        sealing scalar: SecureBytes, use: SecureEnclaveKeyUse, publicPoint: [UInt8], access: SecureEnclaveKey.Access,
        authorization: [UInt8], keychain: Keychain
    ) throws {
        var header = Self.magic + [Self.version, use.rawValue] + publicPoint
        header += SecureEnclaveBlobReader.encoded(access.policy)
        header += SecureEnclaveBlobReader.bigEndian(UInt64(access.sealedAuthorization.count), bytes: 4)
        header += access.sealedAuthorization
        let sealingKey = SecureBytes(authorization)
        let inner = try translatingErrors {
            try scalar.withUnsafeBytes { try AESGCM.seal($0, key: sealingKey, authenticating: header) }
        }
        let outer = try SecureEnclaveBackends.keychainOperation {
            try keychain.sealSoftwareEnclaveBox(inner, header: header)
        }
        self.publicPoint = publicPoint
        self.access = access
        self.use = use
        self.header = header
        innerBox = inner
        serialized = header + outer
    }

    /// Parses a stored form and opens its outer box.
    /// - Throws: ``EnclaveError`` with -50 (errSecParam) for bytes that are not a software enclave key
    ///   for this use (a TPM key among them), -26275 (errSecDecode) for one that was altered or sealed by another
    ///   keychain home.
    init(serialized bytes: [UInt8], use: SecureEnclaveKeyUse, keychain: Keychain) throws {
        var reader = SecureEnclaveBlobReader(bytes)
        guard try reader.take(4) == Self.magic, try reader.take(1) == [Self.version],
            try reader.take(1) == [use.rawValue]
        else { throw SecureEnclaveBlobReader.invalid }
        let point = try reader.take(Self.pointSize)
        guard (try? point.withUnsafeBytes({ try ECKey(curve: .p256, publicPoint: $0) })) != nil else {
            throw SecureEnclaveBlobReader.invalid
        }
        let policy = try reader.policy()
        let sealedAuthorization = try reader.take(Int(try reader.integer(4)))
        guard !sealedAuthorization.isEmpty else { throw SecureEnclaveBlobReader.invalid }
        let header = reader.consumed
        let opened = try SecureEnclaveBackends.keychainOperation {
            try keychain.openSoftwareEnclaveBox(reader.rest, header: header)
        }
        publicPoint = point
        access = SecureEnclaveKey.Access(policy: policy, sealedAuthorization: sealedAuthorization)
        self.use = use
        self.header = header
        innerBox = opened
        serialized = bytes
    }

    /// The public point a stored form's header carries, read without the wrapping key; nil for bytes that are
    /// no software enclave key for `use`, or whose point is not on P-256.
    static func publicPoint(inStoredForm bytes: [UInt8], use: SecureEnclaveKeyUse) -> [UInt8]? {
        var reader = SecureEnclaveBlobReader(bytes)
        guard (try? reader.take(6)) == magic + [version, use.rawValue], let point = try? reader.take(pointSize),
            (try? point.withUnsafeBytes({ try ECKey(curve: .p256, publicPoint: $0) })) != nil
        else { return nil }
        return point
    }

    func signature(digest: [UInt8], authorization: [UInt8]) throws -> [UInt8] {
        guard use.signs, digest.count == 32 else { throw SecureEnclaveBlobReader.invalid }
        let key = try privateKey(authorization)
        return try translatingErrors { try digest.withUnsafeBytes { try key.signature(forDigest: $0) } }
    }

    func sharedSecret(peerPoint: [UInt8], authorization: [UInt8]) throws -> SecureBytes {
        guard use.agrees else { throw SecureEnclaveBlobReader.invalid }
        let peer = try translatingErrors {
            try peerPoint.withUnsafeBytes { try ECKey(curve: .p256, publicPoint: $0) }
        }
        let key = try privateKey(authorization)
        return try translatingErrors { try key.sharedSecret(with: peer) }
    }

    /// The OpenSSL key, made from the scalar the auth value opens, for one use.
    /// - Throws: -26275 (errSecDecode) when the auth value does not open the inner box, or the scalar is not the
    ///   public point's (neither happens to a key the keychain's seals kept intact).
    private func privateKey(_ authorization: [UInt8]) throws -> ECKey {
        let damaged = EnclaveError.status(-26275, reason: "the software enclave key's seal does not open")
        guard authorization.count == SecureEnclaveKey.authorizationSize else { throw damaged }
        let scalar: SecureBytes
        do {
            scalar = try AESGCM.open(innerBox, key: SecureBytes(authorization), authenticating: header)
        } catch {
            throw damaged
        }
        let key = try translatingErrors {
            try scalar.withUnsafeBytes { try ECKey(curve: .p256, privateScalar: $0) }
        }
        guard key.publicPoint == publicPoint else { throw damaged }
        return key
    }
}
