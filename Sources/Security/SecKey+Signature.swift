import CryptoKitOpenSSL
import Foundation

/// Signs `dataToSign` (a message or a digest, as the algorithm says) with a private key.
/// - Parameter error: receives `errSecParam` when the algorithm does not fit the key or a digest has the wrong
///   length.
/// - Returns: the signature (DER for X9.62 ECDSA, `r ‖ s` for RFC 4754, modulus-sized for RSA), or nil.
public func SecKeyCreateSignature(
    _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ dataToSign: CFData,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    SecKeyError.reporting(error) {
        if let enclave = key.enclave { return NSData.copying(try key.enclaveSignature(enclave, algorithm, dataToSign)) }
        let plan = try KeyAlgorithmPlan.resolve(algorithm, key: key, operation: .sign)
        let signature: [UInt8]
        switch (plan, key.material) {
        case (.ecdsa(let input, let raw), .ec(let ec)):
            let digest = try SignatureInputs.prepare(input, dataToSign, algorithm)
            do {
                let der = try digest.withUnsafeBytes { try ec.derSignature(forDigest: $0) }
                signature = raw ? try ECKey.rawSignature(fromDER: der, curve: ec.curve) : der
            } catch {
                throw SecKeyError(errSecInternalComponent, "ECDSA signing failed")
            }
        case (.rsaSignature(let input, let scheme), .rsa(let rsa)):
            let prepared = try SignatureInputs.prepare(input, dataToSign, algorithm)
            do {
                signature = try prepared.withUnsafeBytes {
                    try rsa.signature(for: $0, padding: SignatureInputs.padding(input, scheme))
                }
            } catch {
                throw SecKeyError.param("RSAsign wrong input data length")
            }
        default:
            throw SecKeyError.param("\(algorithm.rawValue): algorithm not supported by the key \(key)")
        }
        return NSData.copying(signature)
    }
}

/// Verifies `signature` over `signedData` with a public key.
/// - Parameter error: receives `errSecVerifyFailed` when the signature does not match, `errSecParam` when the
///   algorithm does not fit the key or a digest has the wrong length.
/// - Returns: true when the signature is valid.
public func SecKeyVerifySignature(
    _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ signedData: CFData, _ signature: CFData,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> Bool {
    let verified: Bool? = SecKeyError.reporting(error) {
        let plan = try KeyAlgorithmPlan.resolve(algorithm, key: key, operation: .verify)
        let signatureBytes = signature
        switch (plan, key.material) {
        case (.ecdsa(let input, let raw), .ec(let ec)):
            let digest = try SignatureInputs.prepare(input, signedData, algorithm)
            let valid = digest.withUnsafeBytes { digest in
                signatureBytes.withUnsafeRawBytes { signature in
                    raw
                        ? ec.isValidSignature(signature, forDigest: digest)
                        : ec.isValidDERSignature(signature, forDigest: digest)
                }
            }
            guard valid else { throw SecKeyError(errSecVerifyFailed, "EC signature verification failed, no match") }
        case (.rsaSignature(let input, let scheme), .rsa(let rsa)):
            let prepared = try SignatureInputs.prepare(input, signedData, algorithm)
            // Apple reads the signature into the modulus's words before any arithmetic: a longer one does not fit
            // and is a bad parameter (SecKeyAdaptors.m, SecRSAKey.c), not a signature that fails to verify.
            guard signatureBytes.length <= rsa.modulusByteCount else {
                let sizes = "\(signatureBytes.length) bytes, the modulus \(rsa.modulusByteCount)"
                throw SecKeyError.param("RSA signature longer than the modulus (\(sizes))")
            }
            let padding = SignatureInputs.padding(input, scheme)
            let valid = prepared.withUnsafeBytes { bytes in
                signatureBytes.withUnsafeRawBytes { signature in
                    rsa.isValidSignature(signature, for: bytes, padding: padding)
                }
            }
            guard valid else {
                throw SecKeyError(errSecVerifyFailed, "RSA signature verification failed, no match")
            }
        default:
            throw SecKeyError.param("\(algorithm.rawValue): algorithm not supported by the key \(key)")
        }
        return true
    }
    return verified ?? false
}

/// The bytes a signature algorithm signs, and the RSA padding it names.
enum SignatureInputs {
    static func prepare(_ input: KeyAlgorithmPlan.SignatureInput, _ data: NSData, _ algorithm: SecKeyAlgorithm) throws
        -> [UInt8]
    {
        switch input {
        case .message(let digest):
            guard let hashed = try? data.withUnsafeRawBytes({ try digest.hash($0) }) else {
                throw SecKeyError(errSecInternalComponent, "hashing the message failed")
            }
            return hashed
        case .digest(let digest?):
            guard data.length == digest.outputByteCount else {
                throw SecKeyError.param("bad digest size for signing with algorithm \(algorithm.rawValue)")
            }
            return data.byteArray
        case .digest(nil):
            return data.byteArray
        }
    }

    static func padding(_ input: KeyAlgorithmPlan.SignatureInput, _ scheme: KeyAlgorithmPlan.RSASignatureScheme)
        -> RSASignaturePadding
    {
        let digest: DigestAlgorithm? =
            switch input {
            case .message(let digest): digest
            case .digest(let digest): digest
            }
        switch scheme {
        case .raw: return .none
        case .pkcs1v15: return .pkcs1v15(digest)
        case .pss: return .pss(digest ?? .sha256)
        }
    }
}
