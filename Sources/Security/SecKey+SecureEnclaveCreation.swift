internal import EnclaveKeys
import Foundation
import KeychainCore

/// What `SecKeyCreateRandomKey` reads when its parameters name a token (`kSecAttrTokenID`): only the Secure
/// Enclave (`kSecAttrTokenIDSecureEnclave`), and only 256-bit EC keys there, as Apple's enclave. The private key is
/// made in the enclave backend; its access control (`kSecAttrAccessControl`, in `kSecPrivateKeyAttrs` or at the
/// top level) must include `.privateKeyUsage`, and its constraints (biometry, passcode…) are asked for before each
/// use. Without an access control, the key takes the given protection (default `WhenUnlockedThisDeviceOnly`) and
/// `.privateKeyUsage`.
struct SecureEnclaveKeyRequest {
    let policy: AccessControlPolicy
    /// The context of `kSecUseAuthenticationContext`, whose evaluations the key's uses may reuse.
    let context: (any AuthenticationContextCarrier)?

    /// The request, or nil when the parameters name no token.
    /// - Throws: ``SecKeyError`` errSecParam for another token, a key type other than EC or a size other than 256,
    ///   an access control without `.privateKeyUsage` (or with constraints on an `Always` class), or
    ///   `kSecAttrSynchronizable` true (enclave keys never leave the device).
    init?(_ parameters: NSDictionary) throws {
        guard let token = parameters[kSecAttrTokenID] else { return nil }
        guard SecDictionary.string(token) == kSecAttrTokenIDSecureEnclave as String else {
            throw SecKeyError.param("Unsupported token (kSecAttrTokenID): \(token); only kSecAttrTokenIDSecureEnclave")
        }
        guard let type = parameters[kSecAttrKeyType] else {
            throw SecKeyError.param("Key generation failed, error -50: kSecAttrKeyType is missing")
        }
        let typeCode = try KeyGenerationRequest.integer(type, named: "key type")
        guard typeCode == 73 || typeCode == 43 else {
            throw SecKeyError.param("The Secure Enclave makes EC keys only, not key type \(type)")
        }
        let size = try parameters[kSecAttrKeySizeInBits].map { try KeyGenerationRequest.integer($0, named: "key size") }
        guard size == nil || size == 256 else {
            throw SecKeyError.param("The Secure Enclave makes 256-bit EC keys only, not \(size ?? 0) bits")
        }
        let own = parameters[kSecPrivateKeyAttrs] as? NSDictionary ?? NSDictionary()
        func value(_ key: CFString) -> Any? { own[key] ?? parameters[key] }
        if let sync = value(kSecAttrSynchronizable), (sync as? Bool) ?? (sync as? NSNumber)?.boolValue ?? false {
            throw SecKeyError.param("A Secure Enclave key cannot be synchronizable: it never leaves this device")
        }
        policy = try Self.policy(value(kSecAttrAccessControl), protection: value(kSecAttrAccessible))
        switch value(kSecUseAuthenticationContext) {
        case nil: context = nil
        case let carrier as AuthenticationContextCarrier: context = carrier
        default: throw SecKeyError.param("kSecUseAuthenticationContext must be an LAContext")
        }
    }

    private static func policy(_ accessControl: Any?, protection: Any?) throws -> AccessControlPolicy {
        guard let accessControl else {
            let fallback = kSecAttrAccessibleWhenUnlockedThisDeviceOnly as String
            let raw = protection.flatMap(SecDictionary.string) ?? fallback
            guard let accessibility = Accessibility(rawValue: raw) else {
                throw SecKeyError.param("kSecAttrAccessible is not a protection class: \(raw)")
            }
            return AccessControlPolicy(accessibility: accessibility, flags: .privateKeyUsage)
        }
        guard let control = accessControl as? SecAccessControl else {
            throw SecKeyError.param("kSecAttrAccessControl is not a SecAccessControl")
        }
        let policy = control.policy
        guard policy.flags.contains(.privateKeyUsage) else {
            throw SecKeyError.param(
                "A Secure Enclave key's access control must include kSecAccessControlPrivateKeyUsage")
        }
        if policy.hasConstraints, policy.accessibility == .always || policy.accessibility == .alwaysThisDeviceOnly {
            throw SecKeyError.param("Constraints cannot protect a key usable before the first unlock (Always)")
        }
        return policy
    }

    /// Makes the key in the task's enclave backend.
    /// - Throws: ``SecKeyError`` errSecParam (-50) when this machine has no enclave (no TPM, no opt-in), as
    ///   Apple's `SecKeyCreateRandomKey` reports an enclave it cannot use; the keychain's status when the auth
    ///   value cannot be sealed (-25308 locked, -25293 nothing to authenticate with).
    func make() throws -> SecKey {
        let key: SecureEnclaveKey
        do {
            key = try SecureEnclaveKey.create(
                use: .general, compactRepresentable: false, policy: { policy }, context: context)
        } catch let error as EnclaveError where error.isNoEnclave {
            throw SecKeyError.param("Key generation failed, error -50: this machine has no Secure Enclave (\(error))")
        } catch let error as EnclaveError {
            throw SecKeyError(error.status, "Key generation failed in the Secure Enclave: \(error)")
        }
        return try SecKey(enclave: EnclaveKeyBinding(key: key, context: context))
    }
}
