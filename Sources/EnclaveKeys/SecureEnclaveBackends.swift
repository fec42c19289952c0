import Foundation
import KeychainCore
internal import TPMEnclave

/// Where this task's Secure Enclave keys are made and used, for both faces (CryptoKit's `SecureEnclave` and
/// Security's `SecKey` with `kSecAttrTokenIDSecureEnclave`): the machine's TPM 2.0 when one answers, else the
/// software enclave when the administrator opted in to it (``SecureEnclaveSetting``), else nothing.
package enum SecureEnclaveBackends {
    /// The backend of this task: the TPM when one answers, else the software enclave when the administrator opted
    /// in to it.
    /// - Throws: ``EnclaveError`` with -4 (errSecUnimplemented) when there is neither, or the TPM's failure when
    ///   it answers but refuses (the storage primary key, its object memory full): then the software enclave never
    ///   stands in, as keys made there would silently replace hardware ones.
    package static func current() throws(EnclaveError) -> any SecureEnclaveBackend {
        let failure: EnclaveError
        do {
            return SecureEnclaveTPMBackend(connection: try connection())
        } catch {
            failure = error
        }
        // -4 is "no TPM at all": none configured, no device, nothing listening, or a build without TSS2.
        guard failure.status == -4 else { throw failure }
        switch SecureEnclaveSetting.current.read() {
        case .software:
            return SecureEnclaveSoftwareBackend()
        case .off(let reason):
            if let reason { logIgnoredSetting(reason) }
            throw failure
        }
    }

    /// What keeps enclave keys in this task now: keychaind's enclave in daemon mode (none while the daemon cannot
    /// be reached), else this process's.
    package static var backing: SecureEnclaveBacking {
        if let remote = remote() { return (try? remote.backing()) ?? .none }
        return (try? current())?.backing ?? .none
    }

    /// Explains on standard error, when `KEYCHAIN_DEBUG` asks for reasons, why a setting file does not count.
    private static func logIgnoredSetting(_ reason: String) {
        let value = ProcessInfo.processInfo.environment["KEYCHAIN_DEBUG"]
        guard let value, value != "0" else { return }
        FileHandle.standardError.write(Data("SecureEnclave: software enclave setting ignored: \(reason)\n".utf8))
    }

    /// The connection to the TPM.
    /// - Throws: ``EnclaveError`` with -4 (errSecUnimplemented, what Apple's Security framework reports for an
    ///   enclave key where there is none) when no TPM is configured or reachable.
    static func connection() throws(EnclaveError) -> TPMConnection {
        guard let tcti = SecureEnclaveBacking.configuredTCTI() else {
            throw .noEnclave(reason: "this machine has no Secure Enclave: no TPM, and no software enclave opt-in")
        }
        do {
            return try TPMConfiguration.connection(tcti)
        } catch {
            throw .status(error.status, reason: error.description)
        }
    }

    /// Drops the process's connection to the TPM at `tcti`, so that a TPM about to go away (a test's `swtpm`)
    /// is not left for the exit handler to flush over a dead socket.
    package static func forgetConnection(to tcti: String) {
        TPMConfiguration.forget(tcti)
    }

    /// Runs a TPM operation, turning its failures into ``EnclaveError`` with their OSStatus (``TPMError/status``;
    /// the TSS2 response code stays in the reason). The connection is kept after a transport failure: it gives its
    /// ESAPI connection up itself and connects anew at the next call, for the keys that hold it and for new lookups
    /// alike, and a TPM gone meanwhile stays errSecNotAvailable rather than becoming "no TPM" (-4), which would let
    /// the software enclave stand in for it.
    static func translating<R>(_ connection: TPMConnection, _ body: () throws(TPMError) -> R) throws(EnclaveError)
        -> R
    {
        do {
            return try body()
        } catch {
            throw .status(error.status, reason: error.description)
        }
    }

    /// Runs a keychain operation, turning its failures into ``EnclaveError`` with the keychain's status:
    /// errSecInteractionNotAllowed (-25308) while the key's class is locked, errSecUserCanceled (-128) for a
    /// canceled prompt, errSecAuthFailed (-25293) for a failed one or a changed enrollment.
    static func keychainOperation<R>(_ body: () throws -> R) throws(EnclaveError) -> R {
        do {
            return try body()
        } catch let error as KeychainError {
            throw .status(error.status, reason: error.reason ?? "the keychain refused the key's use")
        } catch let error as EnclaveError {
            throw error
        } catch {
            throw .status(-2070, reason: "an internal error")  // errSecInternalComponent
        }
    }
}
