import Foundation
import Security
import X509Certificates

/// PKCS#12 files as an app imports them (a user's .p12, a file from an MDM profile): `SecPKCS12Import` of the
/// input with the seed files' passphrase, then the identity's key and certificate, the chain and the trust; and
/// the reading `security import` does (`PKCS12Items`). The input is imported as it is, then with its integrity
/// check made anew, so that a changed byte inside reaches the parsers of the bags instead of a failing MAC.
extension FuzzTarget {
    static let pkcs12 = FuzzTarget(
        name: "pkcs12",
        summary: "SecPKCS12Import of the input (as is and resealed) with a fixed passphrase, then what it holds"
    ) { bytes in
        PKCS12Fuzzing.importFile(bytes)
        if let resealed = PKCS12Archive.resealed(bytes, passphrase: PKCS12Fuzzing.passphrase), resealed != bytes {
            PKCS12Fuzzing.importFile(resealed)
        }
    }
}

enum PKCS12Fuzzing {
    /// The passphrase of the seed files in Fuzz/Corpus/pkcs12.
    static let passphrase = "fuzz"

    static func importFile(_ bytes: [UInt8]) {
        let data = Data(bytes)
        let options = [kSecImportExportPassphrase as String: passphrase] as CFDictionary
        var importedItems: CFArray?
        let status = SecPKCS12Import(data as CFData, options, &importedItems)
        let items = try? PKCS12Items.open(data, passphrase: passphrase)
        fuzzNote("SecPKCS12Import: \(status), security import: \(items == nil ? "refused" : "read")")
        guard status == errSecSuccess else {
            fuzzCheck(importedItems == nil, "a failed import returned items")
            let known = [errSecDecode, errSecAuthFailed, errSecInternalComponent]
            fuzzCheck(known.contains(status), "SecPKCS12Import answered \(status)")
            return
        }
        guard let list = importedItems as? [[String: Any]], list.count == 1 else {
            fuzzCheck(false, "SecPKCS12Import succeeded without one item")
            return
        }
        // SecPKCS12Import leaves out a key without its certificate, which `security import` must read: they agree
        // only on files with an identity.
        if let identity = list[0][kSecImportItemIdentity as String] as? SecIdentity {
            var key: SecKey?
            _ = SecIdentityCopyPrivateKey(identity, &key)
            fuzzCheck(items != nil && items?.privateKey == key, "security import does not read the identity's key")
        }
        exercise(list[0])
    }

    static func exercise(_ item: [String: Any]) {
        let chain = item[kSecImportItemCertChain as String] as? [SecCertificate] ?? []
        for certificate in chain { CertificateFuzzing.exercise(certificate) }
        if let value = item[kSecImportItemTrust as String] {
            let trust = value as? SecTrust
            fuzzCheck(trust != nil, "kSecImportItemTrust is not a trust")
            if let trust { _ = SecTrustEvaluateWithError(trust, nil) }
        }
        _ = item[kSecImportItemLabel as String] as? String
        _ = item[kSecImportItemKeyID as String] as? Data
        guard let value = item[kSecImportItemIdentity as String] else { return }
        guard let identity = value as? SecIdentity else {
            fuzzCheck(false, "kSecImportItemIdentity is not an identity")
            return
        }
        var certificate: SecCertificate?
        var privateKey: SecKey?
        fuzzCheck(SecIdentityCopyCertificate(identity, &certificate) == errSecSuccess, "no identity certificate")
        fuzzCheck(SecIdentityCopyPrivateKey(identity, &privateKey) == errSecSuccess, "no identity key")
        guard let certificate, let privateKey else { return }
        fuzzCheck(chain.first == certificate, "the chain does not start with the identity's certificate")
        KeyFuzzing.checkPrivateKey(privateKey)
    }
}
