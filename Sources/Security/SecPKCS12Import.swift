import Foundation
import X509Certificates

// SecPKCS12Import: the identities and certificates of a PKCS#12 file, parsed by PKCS12Archive (X509Certificates).

/// `SecPKCS12Import` option: the passphrase (a string).
nonisolated(unsafe) public let kSecImportExportPassphrase: CFString = SecConstant("passphrase")
/// Result key: the `SecIdentity` of the file's private key and certificate.
nonisolated(unsafe) public let kSecImportItemIdentity: CFString = SecConstant("identity")
/// Result key: the certificates, the identity's first (an array of `SecCertificate`).
nonisolated(unsafe) public let kSecImportItemCertChain: CFString = SecConstant("chain")
/// Result key: a `SecTrust` for the identity's certificate and the chain, with the basic X.509 policy.
nonisolated(unsafe) public let kSecImportItemTrust: CFString = SecConstant("trust")
/// Result key: the localKeyId bag attribute (data).
nonisolated(unsafe) public let kSecImportItemKeyID: CFString = SecConstant("keyid")
/// Result key: the friendlyName bag attribute (a string).
nonisolated(unsafe) public let kSecImportItemLabel: CFString = SecConstant("label")

/// Imports the identity and certificates of a PKCS#12 file.
/// - Parameters:
///   - pkcs12_data: the file's bytes (DER).
///   - options: `kSecImportExportPassphrase` (absent means the empty passphrase).
///   - items: receives an array with one dictionary per identity.
/// - Returns: `errSecSuccess`; `errSecAuthFailed` for a wrong passphrase; `errSecDecode` for bytes that are not
///   PKCS#12 or whose contents do not decrypt; `errSecParam` for a passphrase that is not a string.
public func SecPKCS12Import(
    _ pkcs12_data: CFData, _ options: CFDictionary, _ items: UnsafeMutablePointer<CFArray?>
) -> OSStatus {
    let settings = options as? [String: Any] ?? [:]
    let passphrase = settings[kSecImportExportPassphrase as String] ?? ""
    guard let passphrase = passphrase as? String else { return errSecParam }
    let contents: PKCS12Contents
    do {
        contents = try PKCS12Archive.open(Array(Data(referencing: pkcs12_data)), passphrase: passphrase)
    } catch {
        return error.status
    }
    var item: [String: Any] = [:]
    let chain = ([contents.certificate].compactMap { $0 } + contents.chain).map(SecCertificate.init(x509:))
    if !chain.isEmpty {
        item[kSecImportItemCertChain as String] = chain as NSArray
        var trust: SecTrust?
        if SecTrustCreateWithCertificates(chain as NSArray, SecPolicyCreateBasicX509(), &trust) == errSecSuccess {
            item[kSecImportItemTrust as String] = trust
        }
    }
    if let certificate = contents.certificate, let key = contents.privateKey {
        guard let privateKey = try? SecKey(pkcs8PrivateKey: key) else { return errSecDecode }
        item[kSecImportItemIdentity as String] = SecIdentity(
            certificate: SecCertificate(x509: certificate), privateKey: privateKey)
    }
    if let label = contents.friendlyName { item[kSecImportItemLabel as String] = label as NSString }
    if let keyID = contents.localKeyID { item[kSecImportItemKeyID as String] = Data(keyID) as NSData }
    items.pointee = [item as NSDictionary] as NSArray
    return errSecSuccess
}
