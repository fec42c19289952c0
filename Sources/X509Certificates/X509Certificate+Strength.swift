import Foundation

@_implementationOnly import COpenSSL

/// What trust evaluation asks of a certificate's cryptography: its key's algorithm and size, the digest its issuer
/// signed it with, and whether it signed itself.
extension X509Certificate {
    /// The kinds of public key the strength rules tell apart.
    package enum KeyAlgorithm: Sendable, Equatable {
        case rsa, ec, edwards, other
    }

    /// The digests the signature rules tell apart.
    package enum SignatureDigest: Sendable, Equatable {
        case md2, md4, md5, sha1, other
    }

    /// The public key's algorithm.
    package var publicKeyAlgorithm: KeyAlgorithm {
        defer { OpenSSLEncoding.clearErrors() }
        guard let key = X509_get0_pubkey(handle) else { return .other }
        switch EVP_PKEY_get_base_id(key) {
        case EVP_PKEY_RSA, EVP_PKEY_RSA_PSS: return .rsa
        case EVP_PKEY_EC: return .ec
        case EVP_PKEY_ED25519, EVP_PKEY_ED448: return .edwards
        default: return .other
        }
    }

    /// The public key's size in bits (an RSA modulus, an EC curve's order), 0 when it cannot be read.
    package var publicKeyBits: Int {
        defer { OpenSSLEncoding.clearErrors() }
        guard let key = X509_get0_pubkey(handle) else { return 0 }
        return Int(max(0, EVP_PKEY_get_bits(key)))
    }

    /// The digest of the certificate's signature.
    package var signatureDigest: SignatureDigest {
        var digest: Int32 = 0
        var key: Int32 = 0
        guard OBJ_find_sigid_algs(X509_get_signature_nid(handle), &digest, &key) == 1 else { return .other }
        switch digest {
        case NID_md2: return .md2
        case NID_md4: return .md4
        case NID_md5: return .md5
        case NID_sha1: return .sha1
        default: return .other
        }
    }

    /// Whether the certificate is its own issuer and its signature verifies with its own key.
    package var isSelfSigned: Bool {
        defer { OpenSSLEncoding.clearErrors() }
        return X509_self_signed(handle, 1) == 1
    }
}
