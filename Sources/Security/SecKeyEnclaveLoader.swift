internal import EnclaveKeys
import Foundation
import Synchronization

/// Where a `SecKey`'s enclave key comes from: the enclave's key itself for a key just made (or checked by an add),
/// or a key item's stored form, loaded by this machine's enclave at the key's first use. A search thus returns a
/// key for every enclave key item, also one this enclave cannot load (made by another TPM, before the TPM was
/// reset, or in another keychain home), as Apple's keychain does; such a key fails each use with errSecDecode, or
/// with errSecNotAvailable when the TPM answers with another storage key than the one its blob names.
final class SecKeyEnclaveLoader: Sendable {
    /// The stored form (never a private scalar: a TPM's wrapped blob, or the software enclave's sealed key).
    let storedForm: [UInt8]
    /// The public point, from the key or read from the stored form.
    let publicPoint: [UInt8]
    /// Whether the private key is in hardware (a TPM), as the stored form says.
    let isHardwareBacked: Bool
    /// The loaded key; nil until a use loads it. A failed load is not kept: the next use tries again.
    private let loaded: Mutex<SecureEnclaveKey?>

    /// A key the enclave holds already.
    init(key: SecureEnclaveKey) {
        storedForm = Array(key.dataRepresentation)
        publicPoint = key.publicPoint
        isHardwareBacked = key.isHardwareBacked
        loaded = Mutex(key)
    }

    /// A stored form to load at first use; nil for bytes that are no `SecKey` enclave key's stored form, or whose
    /// public point cannot be read.
    init?(storedForm: [UInt8]) {
        guard let point = SecureEnclaveKey.publicPoint(ofStoredForm: storedForm, use: .general) else { return nil }
        self.storedForm = storedForm
        publicPoint = point
        isHardwareBacked = SecureEnclaveKey.isHardwareStoredForm(storedForm)
        loaded = Mutex(nil)
    }

    /// The enclave's key, loaded now if no use loaded it before.
    /// - Throws: ``SecKeyError``: errSecDecode (-26275) when this machine's enclave cannot load the stored form;
    ///   errSecUnimplemented (-4) without an enclave; the keychain's status when it refuses.
    func key() throws -> SecureEnclaveKey {
        if let key = loaded.withLock({ $0 }) { return key }
        let key: SecureEnclaveKey
        do {
            key = try SecureEnclaveKey.restore(Data(storedForm), use: .general)
        } catch let error as EnclaveError {
            throw Self.refusal(error)
        }
        loaded.withLock { $0 = key }
        return key
    }

    /// The failure of a load. A TPM's refusal of the blob itself (TPM_RC_INTEGRITY for another TPM's blob, which
    /// the enclave reports as errSecDecode already), bytes this backend does not read (-50), and a software seal of
    /// another home (-26275) all mean one thing to the caller: this enclave cannot decode the stored key. Anything
    /// else keeps its own status: no enclave (-4), a TPM busy, full or out of reach (-25291, errSecNotAvailable), a
    /// TPM in lockout or a locked keychain (-25308), so that a caller never gives up a good key for them.
    static func refusal(_ error: EnclaveError) -> SecKeyError {
        let status = error.status
        guard status == errSecParam || status == errSecDecode else {
            return SecKeyError(status, "Secure Enclave: \(error.description)")
        }
        return SecKeyError(
            errSecDecode,
            "Secure Enclave: this machine's enclave cannot load the key (made by another TPM, before the TPM was "
                + "reset, or in another keychain home): \(error.description)")
    }
}
