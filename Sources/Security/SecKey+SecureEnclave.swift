import CryptoKitOpenSSL
internal import EnclaveKeys
import Foundation
import KeychainCore
import KeychainCrypto

/// A `SecKey`'s private key in the Secure Enclave backend (EnclaveKeys: the TPM 2.0, or the administrator's
/// software enclave), with the authentication context its uses may reuse. The private key never exists here:
/// signing and ECDH run in the backend, after the keychain opens the key's auth value under its access control.
/// A key found by a search is loaded by the enclave at its first use (``SecKeyEnclaveLoader``).
struct EnclaveKeyBinding: Sendable {
    private let loader: SecKeyEnclaveLoader
    /// The context of `kSecUseAuthenticationContext` when the key was made; nil for a key found by a search,
    /// whose uses ask as the access control says.
    let context: (any AuthenticationContextCarrier)?

    /// A key the enclave holds.
    init(key: SecureEnclaveKey, context: (any AuthenticationContextCarrier)?) {
        loader = SecKeyEnclaveLoader(key: key)
        self.context = context
    }

    private init(loader: SecKeyEnclaveLoader) {
        self.loader = loader
        context = nil
    }

    /// ECDSA over a SHA-256 digest in the enclave: `r ‖ s`.
    /// - Throws: ``SecKeyError`` with the enclave's or the keychain's status (-128 canceled, -25293 failed or a
    ///   changed enrollment, -25308 locked or interaction not allowed, -26275 a key this enclave cannot load).
    func signature(digest: [UInt8]) throws -> [UInt8] {
        let key = try loader.key()
        return try Self.reporting { try key.signature(digest: digest, context: context, reason: nil) }
    }

    /// ECDH with `peerPoint` in the enclave: the shared x coordinate.
    func sharedSecret(peerPoint: [UInt8]) throws -> SecureBytes {
        let key = try loader.key()
        return try Self.reporting { try key.sharedSecret(peerPoint: peerPoint, context: context, reason: nil) }
    }

    /// The public point, `04 ‖ x ‖ y`, known without loading the key.
    var publicPoint: [UInt8] { loader.publicPoint }

    /// Whether the private key is in hardware (a TPM); false for the software enclave.
    var isHardwareBacked: Bool { loader.isHardwareBacked }

    /// The key item's value: the enclave's stored form (never a private scalar) as the external representation.
    var itemValue: KeyValue {
        KeyValue(keyType: "73", keyClass: "1", sizeInBits: 256, externalRepresentation: Secret(loader.storedForm))
    }

    /// The key a key item's value holds, when it is an enclave key's stored form, loaded now (what an add
    /// checks); nil for any other value.
    /// - Throws: ``SecKeyError`` when it is one but this machine's enclave cannot load it (no enclave, another TPM).
    static func restoring(_ value: KeyValue) throws -> EnclaveKeyBinding? {
        guard let binding = deferred(value) else { return nil }
        _ = try binding.loader.key()
        return binding
    }

    /// The key a found key item's value holds, when it is an enclave key's stored form, loaded at its first use;
    /// nil for any other value, and for a stored form whose public key cannot be read.
    static func deferred(_ value: KeyValue) -> EnclaveKeyBinding? {
        guard value.keyClass == "1", value.keyType == "73" else { return nil }
        var bytes = value.externalRepresentation.bytes
        defer { wipe(&bytes) }
        guard SecureEnclaveKey.isStoredForm(bytes), let loader = SecKeyEnclaveLoader(storedForm: bytes) else {
            return nil
        }
        return EnclaveKeyBinding(loader: loader)
    }

    /// Runs an enclave operation, turning its failure into a ``SecKeyError`` with its status.
    static func reporting<R>(_ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let error as EnclaveError {
            throw SecKeyError(error.status, "Secure Enclave: \(error.description)")
        }
    }
}

extension SecKey {
    /// A private key held by the enclave.
    convenience init(enclave: EnclaveKeyBinding) throws {
        let point = enclave.publicPoint
        guard let publicKey = try? point.withUnsafeBytes({ try ECKey(curve: .p256, publicPoint: $0) }) else {
            throw SecKeyError(errSecInternalComponent, "the enclave key's public point is not on P-256")
        }
        self.init(enclave: enclave, publicKey: publicKey)
    }

    /// Why a private enclave key cannot be exported: errSecUnimplemented (-4), as Apple's `SecKey.m` answers for
    /// a token key, whose key class has no export (Security's `SecCTKKey.m`).
    func enclaveExportRefusal() -> SecKeyError {
        let address = String(UInt(bitPattern: ObjectIdentifier(self).hashValue), radix: 16)
        return SecKeyError(
            errSecUnimplemented,
            "export not implemented for key <SecKeyRef:('\(kSecAttrTokenIDSecureEnclave)') 0x\(address)>")
    }

    /// ECDSA with an enclave key for `algorithm`: a message's digest or a digest of any size, signed as ECDSA reads
    /// it on P-256 (its leftmost 256 bits), X9.62 (DER) or RFC 4754.
    func enclaveSignature(_ enclave: EnclaveKeyBinding, _ algorithm: SecKeyAlgorithm, _ data: NSData) throws
        -> [UInt8]
    {
        let plan = try KeyAlgorithmPlan.resolve(algorithm, key: self, operation: .sign)
        guard case .ecdsa(let input, let raw) = plan else {
            throw SecKeyError.param("\(algorithm.rawValue): algorithm not supported by the key \(self)")
        }
        let digest = try SignatureInputs.prepare(input, data, algorithm)
        let signature = try enclave.signature(digest: ECDSADigest.p256(digest))
        if raw { return signature }
        guard let der = try? signature.withUnsafeBytes({ try ECKey.derSignature(fromRaw: $0, curve: .p256) }) else {
            throw SecKeyError(errSecInternalComponent, "the enclave's signature could not be encoded")
        }
        return der
    }
}

/// The attribute `SecKeyCopyAttributes` gives every private key made in the Secure Enclave backend: true when the
/// key lives in hardware (a TPM 2.0), false for the administrator's software enclave. A Linux extension; Apple's
/// enclave keys are always in hardware, and Apple's dictionaries have no such key.
nonisolated(unsafe) public let kSecAttrIsHardwareBackedLinux: CFString = SecConstant("linux.hwbk")

extension SecKey {
    /// `SecKeyCopyAttributes` of an enclave private key: its token (`kSecAttrTokenID` = `com.apple.setoken`),
    /// class, type and size, `klbl`, the usage flags, not extractable, and whether it is in hardware; no
    /// `kSecValueData`, since the private key cannot be exported.
    func enclaveAttributes(_ enclave: EnclaveKeyBinding) -> CFDictionary? {
        guard let label = applicationLabel else { return nil }
        let attributes: [String: Any] = [
            kSecClass as String: kSecClassKey,
            kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
            kSecAttrKeyClass as String: kSecAttrKeyClassPrivate,
            kSecAttrApplicationLabel as String: Data(label),
            kSecAttrIsPermanent as String: true,
            "priv": true,
            "modi": true,
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeySizeInBits as String: 256,
            kSecAttrEffectiveKeySize as String: 256,
            kSecAttrIsSensitive as String: true,
            "asen": true,
            kSecAttrIsExtractable as String: false,
            "next": true,
            kSecAttrCanEncrypt as String: false,
            kSecAttrCanDecrypt as String: true,
            kSecAttrCanDerive as String: true,
            kSecAttrCanSign as String: true,
            kSecAttrCanVerify as String: false,
            "snrc": false,
            "vyrc": false,
            kSecAttrCanWrap as String: false,
            kSecAttrCanUnwrap as String: true,
            kSecAttrIsHardwareBackedLinux as String: enclave.isHardwareBacked,
        ]
        return NSDictionary(dictionary: attributes)
    }
}
