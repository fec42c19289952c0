package import KeychainCore
package import KeychainCrypto

/// The keeper of a process whose keychain is open in it: the keychain's calls, with the `LAContext`'s own
/// context object (which may belong to another keychain of the process; its evaluations hold across them).
struct KeychainEnclaveKeyKeeper: EnclaveKeyKeeper {
    let keychain: Keychain

    func sealAuthorization(
        _ authorization: SecureBytes, policy: AccessControlPolicy, binding: [UInt8],
        context: (any AuthenticationContextCarrier)?
    ) throws -> [UInt8] {
        try keychain.sealEnclaveKeyAuthorization(
            authorization, policy: policy, binding: binding, context: context?.authenticationContext)
    }

    func openAuthorization(
        _ sealed: [UInt8], policy: AccessControlPolicy, binding: [UInt8],
        context: (any AuthenticationContextCarrier)?, reason: String?
    ) throws -> SecureBytes {
        try keychain.openEnclaveKeyAuthorization(
            sealed, policy: policy, binding: binding, context: context?.authenticationContext, reason: reason)
    }

    func sealSoftwareBox(_ inner: [UInt8], header: [UInt8]) throws -> [UInt8] {
        try keychain.sealSoftwareEnclaveBox(inner, header: header)
    }

    func openSoftwareBox(_ outer: [UInt8], header: [UInt8]) throws -> [UInt8] {
        try keychain.openSoftwareEnclaveBox(outer, header: header)
    }
}
