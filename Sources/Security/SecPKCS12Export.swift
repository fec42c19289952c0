import Foundation
import KeychainCore
import KeychainCrypto
import X509Certificates

/// Writing PKCS#12 files, for `security export -f pkcs12` (Apple's export function, `SecItemExport`, is macOS
/// only): one private key with its certificate, and other certificates, as `openssl pkcs12 -export` writes them
/// by default (see `PKCS12Archive.export`).
package enum PKCS12Export {
    /// The file's bytes.
    /// - Parameters:
    ///   - key: a private key, or nil for a file of certificates only.
    ///   - certificate: the key's certificate (required with a key).
    ///   - chain: other certificates.
    ///   - label: the friendlyName of the key's certificate.
    ///   - passphrase: what `SecPKCS12Import` and `openssl pkcs12` will ask.
    /// - Throws: `PKCS12Export.Failure` with `errSecParam` for a public key or a key without its certificate,
    ///   `errSecDecode` for a key that is not the certificate's.
    package static func data(
        key: SecKey?, certificate: SecCertificate?, chain: [SecCertificate], label: String?, passphrase: String
    ) throws(Failure) -> Data {
        var privateKey: SecureBytes?
        if let key {
            guard let bytes = key.pkcs8PrivateKey else {
                throw Failure(status: errSecParam, detail: "a PKCS#12 file holds private keys, not public ones")
            }
            privateKey = bytes
        }
        do {
            let bytes = try PKCS12Archive.export(
                privateKey: privateKey, certificate: certificate?.x509, chain: chain.map(\.x509),
                friendlyName: label, passphrase: passphrase)
            return Data(bytes)
        } catch {
            throw Failure(status: error.status, detail: KeychainError.Reason(verbatim: error.description))
        }
    }

    package typealias Failure = PKCS12Failure
}

/// Why a PKCS#12 file could not be read or written: the `OSStatus` and a detail without secrets (ours translated,
/// the certificate library's shown as it is).
package struct PKCS12Failure: Error, Sendable {
    package let status: OSStatus
    package let detail: KeychainError.Reason
}
