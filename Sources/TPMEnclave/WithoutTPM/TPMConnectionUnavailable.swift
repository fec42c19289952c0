// The TPM back end of a build without TSS2 (`KEYCHAIN_WITHOUT_TPM=1`, the fully static `security`: Debian ships
// TSS2 as shared libraries only). The same API as TPMConnection.swift, in which nothing connects: SecureEnclave
// keys then use the software enclave when the administrator opted in, and are errSecUnimplemented otherwise.

/// A connection that never opens: this build has no TPM support.
package final class TPMConnection: Sendable {
    package let tcti: String
    package let timeouts: TPMTimeouts

    /// - Throws: `TPMError.notBuiltIn`, always.
    package init(tcti: String, timeouts: TPMTimeouts = .configured()) throws(TPMError) {
        self.tcti = tcti
        self.timeouts = timeouts
        throw .notBuiltIn
    }

    package func createKey(signing: Bool, authorization: [UInt8] = []) throws(TPMError) -> TPMKeyBlob {
        throw .notBuiltIn
    }

    package func createKey(use: TPMKeyUse, authorization: [UInt8] = []) throws(TPMError) -> TPMKeyBlob {
        throw .notBuiltIn
    }

    package func sign(digest: [UInt8], with blob: TPMKeyBlob, authorization: [UInt8] = []) throws(TPMError)
        -> [UInt8]
    { throw .notBuiltIn }

    package func sharedSecret(
        peerX x: [UInt8], peerY y: [UInt8], with blob: TPMKeyBlob, authorization: [UInt8] = []
    ) throws(TPMError) -> [UInt8] { throw .notBuiltIn }

    package func check(_ blob: TPMKeyBlob) throws(TPMError) { throw .notBuiltIn }
}
