import Foundation
import KeychainCore
import X509Certificates

/// What a PKCS#12 file holds, as the face's objects: for `security import`, which stores the key and the
/// certificates as items (the identity is their pairing), the same reading `SecPKCS12Import` does.
package struct PKCS12Items {
    package let privateKey: SecKey?
    package let certificate: SecCertificate?
    /// The other certificates, in the file's order.
    package let chain: [SecCertificate]
    /// The friendlyName of the key's certificate.
    package let label: String?

    /// Opens `data` with `passphrase`.
    /// - Throws: `PKCS12Failure` with `errSecAuthFailed` for a wrong passphrase, `errSecDecode` for bytes that
    ///   are not PKCS#12 or a key that does not parse.
    package static func open(_ data: Data, passphrase: String) throws(PKCS12Failure) -> PKCS12Items {
        let contents: PKCS12Contents
        do {
            contents = try PKCS12Archive.open(Array(data), passphrase: passphrase)
        } catch {
            throw PKCS12Failure(status: error.status, detail: KeychainError.Reason(verbatim: error.description))
        }
        var key: SecKey?
        if let bytes = contents.privateKey {
            do {
                key = try SecKey(pkcs8PrivateKey: bytes)
            } catch {
                throw PKCS12Failure(
                    status: errSecDecode,
                    detail: (error as? SecKeyError).map { KeychainError.Reason(verbatim: $0.reason) }
                        ?? KeychainError.Reason("the private key does not parse"))
            }
        }
        return PKCS12Items(
            privateKey: key, certificate: contents.certificate.map(SecCertificate.init(x509:)),
            chain: contents.chain.map(SecCertificate.init(x509:)), label: contents.friendlyName)
    }
}
