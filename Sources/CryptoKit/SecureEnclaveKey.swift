import Foundation
internal import KeychainCore
internal import KeychainCrypto
import LocalAuthentication
import Security
internal import TPMEnclave

/// What a SecureEnclave private key holds: its TPM blob, the connection, and, for keys made with an access control
/// (every key made since access control binds), that access control and the TPM auth value sealed by the keychain
/// under it. Every use opens the auth value through the keychain, which enforces the protection class and asks
/// the user for the constraints, and presents it to the TPM, which refuses the key without it.
struct SecureEnclaveKey: Sendable {
    let blob: TPMKeyBlob
    let connection: TPMConnection
    /// The access control and sealed auth value; nil for keys written before access control bound (format "KTPM").
    let access: Access?
    /// The context whose evaluations a use may reuse (`authenticationContext`).
    let context: LAContext?

    struct Access: Sendable {
        let policy: AccessControlPolicy
        let sealedAuthorization: [UInt8]
    }

    private static let magic: [UInt8] = Array("KTPA".utf8)

    /// The stored form: `"KTPA" ‖ u32 len ‖ TPM blob ‖ u8 len ‖ protection class ‖ u64 flags ‖ sealed auth value`;
    /// a key without access control is the TPM blob alone (`"KTPM"…`).
    var dataRepresentation: Data {
        guard let access else { return Data(blob.serialized) }
        let tpm = blob.serialized
        let protection = Array(access.policy.accessibility.rawValue.utf8)
        var bytes = Self.magic + Self.bigEndian(UInt64(tpm.count), bytes: 4) + tpm
        bytes += [UInt8(protection.count)] + protection + Self.bigEndian(UInt64(access.policy.flags.rawValue), bytes: 8)
        return Data(bytes + access.sealedAuthorization)
    }

    /// A new key in the TPM, its auth value sealed for `accessControl` in the task's (or process's) keychain.
    static func create(
        signing: Bool, compactRepresentable: Bool, accessControl: SecAccessControl, context: LAContext?
    ) throws -> SecureEnclaveKey {
        let connection = try SecureEnclave.connection()
        let policy = try SecureEnclave.policy(of: accessControl)
        let keychain = try SecureEnclave.keychainOperation { try ProcessKeychain.current() }
        var authorization = [UInt8](repeating: 0, count: TPMConnection.maximumAuthorizationSize)
        defer { authorization.withUnsafeMutableBytes { wipeBytes($0) } }
        try SecureEnclave.keychainOperation { try authorization.withUnsafeMutableBytes { try SystemRandom.fill($0) } }
        for _ in 0..<32 {
            let blob = try SecureEnclave.translating(connection) { () throws(TPMError) in
                try connection.createKey(signing: signing, authorization: authorization)
            }
            let publicKey = try CryptoKit.P256.KeyAgreement.PublicKey(x963Representation: blob.publicPoint)
            guard !compactRepresentable || publicKey.compactRepresentation != nil else { continue }
            let sealed = try SecureEnclave.keychainOperation {
                try keychain.sealEnclaveKeyAuthorization(
                    SecureBytes(authorization), policy: policy, binding: blob.publicPoint,
                    context: context?.authenticationContext)
            }
            return SecureEnclaveKey(
                blob: blob, connection: connection, access: Access(policy: policy, sealedAuthorization: sealed),
                context: context)
        }
        throw CryptoKitError.underlyingCoreCryptoError(error: -1)
    }

    /// A key from its stored form, checked by loading it into the TPM.
    static func restore(_ data: Data, signing: Bool, context: LAContext?) throws -> SecureEnclaveKey {
        let connection = try SecureEnclave.connection()
        let bytes = Array(data)
        let (tpmBytes, access) = try parse(bytes)
        let blob = try SecureEnclave.translating(connection) { () throws(TPMError) in
            try TPMKeyBlob(serialized: tpmBytes, signing: signing)
        }
        try SecureEnclave.translating(connection) { () throws(TPMError) in try connection.check(blob) }
        return SecureEnclaveKey(blob: blob, connection: connection, access: access, context: context)
    }

    /// Runs a TPM operation with the key's auth value, opened (and, as the access control says, authenticated)
    /// for this use.
    func using<R>(_ body: ([UInt8]) throws(TPMError) -> R) throws -> R {
        var authorization: [UInt8] = []
        defer { authorization.withUnsafeMutableBytes { wipeBytes($0) } }
        if let access {
            let keychain = try SecureEnclave.keychainOperation { try ProcessKeychain.current() }
            let reason = context.map(\.localizedReason).flatMap { $0.isEmpty ? nil : $0 }
            let opened = try SecureEnclave.keychainOperation {
                try keychain.openEnclaveKeyAuthorization(
                    access.sealedAuthorization, policy: access.policy, binding: blob.publicPoint,
                    context: context?.authenticationContext, reason: reason)
            }
            authorization = opened.withUnsafeBytes { Array($0) }
        }
        return try SecureEnclave.translating(connection) { () throws(TPMError) in try body(authorization) }
    }

    /// Splits a stored form into the TPM blob and the access part.
    /// - Throws: `underlyingCoreCryptoError(error: -50)` for bytes of neither format.
    private static func parse(_ bytes: [UInt8]) throws -> (tpm: [UInt8], access: Access?) {
        let invalid = CryptoKitError.underlyingCoreCryptoError(error: -50)
        guard bytes.count > 4, Array(bytes[0..<4]) == magic else { return (bytes, nil) }
        var offset = 4
        func take(_ count: Int) throws -> ArraySlice<UInt8> {
            guard count >= 0, bytes.count - offset >= count else { throw invalid }
            defer { offset += count }
            return bytes[offset..<(offset + count)]
        }
        func integer(_ count: Int) throws -> UInt64 { try take(count).reduce(0) { $0 << 8 | UInt64($1) } }
        let tpm = Array(try take(Int(try integer(4))))
        let protectionLength = Int(try integer(1))
        guard let accessibility = Accessibility(rawValue: String(decoding: try take(protectionLength), as: UTF8.self))
        else { throw invalid }
        let flags = AccessControlFlags(rawValue: UInt(try integer(8)))
        let sealed = Array(bytes[offset...])
        guard !sealed.isEmpty else { throw invalid }
        return (tpm, Access(policy: AccessControlPolicy(accessibility: accessibility, flags: flags),
                            sealedAuthorization: sealed))
    }

    private static func bigEndian(_ value: UInt64, bytes count: Int) -> [UInt8] {
        (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}
