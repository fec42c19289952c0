import Foundation
import KeychainCrypto

/// The secret that authorizes the use of a SecureEnclave (TPM) key, kept as the keychain keeps an item's secret:
/// under a random item key wrapped by the access control's class key, and, when the access control has
/// constraints, inside a constraint envelope whose alternatives only the factor keys open. Whoever cannot open
/// the class (locked keychain) or the factors (no authentication, a changed enrollment) cannot use the key.
extension Keychain {
    private static let enclaveAuthorizationTable = "enclave-key"
    private static let enclaveAuthorizationVersion: UInt8 = 1

    /// Seals `authorization` for `policy`, bound to `binding` (the key's public identity).
    /// - Throws: `errSecInteractionNotAllowed` when the class is not available now, `errSecAuthFailed` when no
    ///   constraint alternative can be made (no passcode, nothing enrolled for `.biometryCurrentSet` alone).
    package func sealEnclaveKeyAuthorization(
        _ authorization: SecureBytes, policy: AccessControlPolicy, binding: [UInt8], context: AuthenticationContext?
    ) throws -> [UInt8] {
        if policy.hasConstraints, policy.accessibility == .always || policy.accessibility == .alwaysThisDeviceOnly {
            throw KeychainError.param.because(
                "the deprecated Always classes cannot carry access-control constraints (\(policy.accessibility.rawValue))"
            )
        }
        if policy.accessibility == .whenPasscodeSetThisDeviceOnly, try !dataProtection.hasPasscode {
            throw KeychainError.authFailed.because(
                "WhenPasscodeSetThisDeviceOnly needs a keychain passcode, and none is set")
        }
        let sealer = Self.enclaveSealer(policy, binding: binding)
        let itemKey = try SystemRandom.key()
        let wrappedKey = try classKey(policy.accessibility).wrap(itemKey)
        let secret = authorization.withUnsafeBytes { Array($0) }
        let sealed: [UInt8]
        if policy.hasConstraints {
            sealed = try sealConstrained(secret, policy: policy, sealer: sealer, itemKey: itemKey, context: context)
        } else {
            sealed = try AESGCM.seal(secret, key: itemKey, authenticating: sealer.associatedData(.secret))
        }
        return [Self.enclaveAuthorizationVersion] + UInt32(wrappedKey.count).bigEndianBytes + wrappedKey + sealed
    }

    /// Opens what ``sealEnclaveKeyAuthorization(_:policy:binding:context:)`` sealed, asking the user through the
    /// keychain's authenticators unless `context` already holds a reusable authentication.
    /// - Throws: `errSecInteractionNotAllowed` while the class is locked (or when a prompt is needed and
    ///   `context` does not allow interaction), `errSecUserCanceled`, `errSecAuthFailed` (no match, wrong
    ///   passcode, a changed enrollment), `errSecDecode` for bytes that are not such a seal.
    /// - Parameter caller: who a prompt names as asking (default: the keychain's own identity).
    package func openEnclaveKeyAuthorization(
        _ bytes: [UInt8], policy: AccessControlPolicy, binding: [UInt8], context: AuthenticationContext?,
        reason: String?, caller: CallerIdentity? = nil
    ) throws -> SecureBytes {
        guard bytes.count > 5, bytes[0] == Self.enclaveAuthorizationVersion else {
            throw KeychainError.decode.because("the key's authorization is not one this keychain sealed")
        }
        let length = bytes[1..<5].reduce(0) { $0 << 8 | Int($1) }
        guard bytes.count > 5 + length else {
            throw KeychainError.decode.because("the key's authorization is truncated")
        }
        let sealer = Self.enclaveSealer(policy, binding: binding)
        // Under the class key of its time: a renewal reseals rows, not the app's copy of its key, so the retired
        // keys open it.
        let itemKey = try itemKey(
            wrapped: Array(bytes[5..<(5 + length)]), sealer: sealer, protection: policy.accessibility)
        let sealed = Array(bytes[(5 + length)...])
        guard policy.hasConstraints else { return try sealer.openSecret(sealed, itemKey: itemKey) }
        let authentication = ReadAuthentication(
            context: context, ui: .allow, operationPrompt: reason, asker: caller ?? configuration.identity)
        return try openConstrained(
            sealed, policy: policy, sealer: sealer, itemKey: itemKey, authentication: authentication)
    }

    private static func enclaveSealer(_ policy: AccessControlPolicy, binding: [UInt8]) -> ItemSealer {
        ItemSealer(
            table: enclaveAuthorizationTable, uuid: binding + policy.encoded, protection: policy.accessibility,
            version: ItemSealer.enclaveAuthorizationFormat)
    }
}
