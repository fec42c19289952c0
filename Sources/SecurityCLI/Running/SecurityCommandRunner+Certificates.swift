import Foundation
import KeychainCore
import Security

extension SecurityCommandRunner {
    /// `find-certificate`: the first matching certificate (every one with `-a`), as attributes or PEM, with its
    /// hashes (`-Z`) and e-mail addresses (`-m`).
    func findCertificate(_ command: FindCertificateCommand, identity: IdentityOptions) throws(CommandFailure) {
        let operation = "SecKeychainSearchCopyNext"
        let face = try face(identity)
        var found = try face.certificates(operation: operation).filter { item in
            Self.matches(item, name: command.name) && Self.matches(item.reference, email: command.email)
        }
        guard !found.isEmpty else { throw KeychainFace.failure(operation, errSecItemNotFound) }
        if !command.all { found = [found[0]] }
        let path = keychainPath(face)
        for item in found {
            let certificate = item.reference
            let emails = (Self.emails(certificate))
            if format.json {
                var object = CertificateListing.json(item.attributes)
                object["sha1"] = CertificateFingerprint.sha1Hex(certificate)
                object["sha256"] = CertificateFingerprint.sha256Hex(certificate)
                object["emails"] = emails
                object["pem"] = Self.pem(certificate)
                output.writeLine(JSONText.encode(object))
                continue
            }
            if command.hashes {
                output.writeLine("SHA-256 hash: " + CertificateFingerprint.sha256Hex(certificate))
                output.writeLine("SHA-1 hash: " + CertificateFingerprint.sha1Hex(certificate))
            }
            if command.showEmails { output.writeLine("email addresses: " + emails.joined(separator: ", ")) }
            if command.pem {
                output.write(Self.pem(certificate))
            } else {
                output.write(
                    CertificateListing.text(
                        keychainPath: path, itemClass: CertificateListing.certificateClass, attributes: item.attributes)
                )
            }
        }
    }

    /// `add-certificates FILE…`: adds every certificate of the files; one already there is reported and the
    /// others are still added (the exit code is the last failure's).
    func addCertificates(_ files: [String], identity: IdentityOptions) throws(CommandFailure) -> Int32 {
        let operation = "SecCertificateAddToKeychain"
        var certificates: [SecCertificate] = []
        for file in files { certificates += try CertificateFiles.read(file, operation: operation) }
        let face = try face(identity)
        var exitCode = ExitCode.success
        var added = 0
        for certificate in certificates {
            let status = face.add([kSecClass as String: kSecClassCertificate, kSecValueRef as String: certificate])
            if status == errSecSuccess {
                added += 1
            } else {
                let failure = KeychainFace.failure(operation, status)
                report(failure)
                exitCode = failure.exitCode
            }
        }
        if format.json { output.writeLine(JSONText.encode(["added": added])) }
        return exitCode
    }

    /// `delete-certificate`, `delete-identity`: the one certificate `-c` or `-Z` names (and for an identity its
    /// private key). Several certificates of that name are refused: `-Z` tells them apart.
    func deleteCertificate(_ command: DeleteCertificateCommand, identity: IdentityOptions) throws(CommandFailure) {
        let operation = command.identity ? "SecIdentityDelete" : "SecKeychainItemDelete"
        let face = try face(identity)
        let certificates = try face.certificates(operation: operation).filter { item in
            let certificate = item.reference
            if let hash = command.hash?.uppercased(), hash != CertificateFingerprint.sha1Hex(certificate),
                hash != CertificateFingerprint.sha256Hex(certificate)
            {
                return false
            }
            if let name = command.name {
                return item.label == name || SecCertificateCopySubjectSummary(certificate).map { $0 as String } == name
            }
            return true
        }
        var chosen = certificates
        var key: KeychainFace.Item<SecKey>?
        if command.identity {
            let pairs = StoredIdentity.pairs(certificates, try face.privateKeys(operation: operation))
            chosen = pairs.map(\.certificate)
            key = pairs.first?.key
        }
        guard let item = chosen.first else { throw KeychainFace.failure(operation, errSecItemNotFound) }
        guard chosen.count == 1 else {
            throw CommandFailure(
                operation,
                KeychainError.duplicateItem.because(
                    "\(chosen.count) certificates match; name one by its hash with -Z (find-certificate -Z "
                        + "prints them)"))
        }
        try face.delete(item, operation: operation)
        if let key { try face.delete(key, operation: operation) }
        if format.json {
            output.writeLine(
                JSONText.encode([
                    "deleted": ["sha1": CertificateFingerprint.sha1Hex(item.reference), "identity": command.identity]
                ]))
        }
    }

    /// `find-identity`: identities (a certificate and the private key of its public key), each with its
    /// certificate's SHA-1 and label; the valid ones are those whose certificate the policy trusts.
    func findIdentity(_ command: FindIdentityCommand, identity: IdentityOptions) throws(CommandFailure) {
        let operation = "SecIdentitySearchCopyNext"
        let face = try face(identity)
        var pairs = StoredIdentity.pairs(
            try face.certificates(operation: operation), try face.privateKeys(operation: operation))
        if let string = command.string, command.policy != .sslServer {
            pairs = pairs.filter { Self.matches($0.certificate, name: string) }
        }
        let certificates = try face.certificates(operation: operation).map(\.reference)
        let results = pairs.map { pair in (pair, trustError(pair.certificate.reference, certificates, command)) }
        if format.json {
            let identities = results.map { pair, error -> [String: Any] in
                var object: [String: Any] = [
                    "sha1": CertificateFingerprint.sha1Hex(pair.certificate.reference),
                    "label": Self.name(pair.certificate), "valid": error == nil,
                ]
                if let error { object["error"] = error }
                return object
            }
            output.writeLine(JSONText.encode(["policy": command.policy.rawValue, "identities": identities]))
            return
        }
        let policyName =
            switch command.policy {
            case .basic: "X.509 Basic"
            case .sslClient: "SSL Client"
            case .sslServer: "SSL Server"
            }
        output.writeLine("")
        output.writeLine("Policy: \(policyName)")
        if !command.validOnly {
            output.writeLine("  Matching identities")
            for (index, (pair, error)) in results.enumerated() {
                output.writeLine(
                    "  \(index + 1)) \(CertificateFingerprint.sha1Hex(pair.certificate.reference)) "
                        + "\"\(Self.name(pair.certificate))\"" + (error.map { " (\($0))" } ?? ""))
            }
            output.writeLine("     \(results.count) identities found")
            output.writeLine("")
        }
        let valid = results.filter { $0.1 == nil }
        output.writeLine("  Valid identities only")
        for (index, (pair, _)) in valid.enumerated() {
            output.writeLine(
                "  \(index + 1)) \(CertificateFingerprint.sha1Hex(pair.certificate.reference)) "
                    + "\"\(Self.name(pair.certificate))\"")
        }
        output.writeLine("     \(valid.count) valid identities found")
    }

    /// The trust error's text for the identity's certificate under the command's policy, with the keychain's
    /// other certificates as possible intermediates; nil when trusted.
    private func trustError(_ certificate: SecCertificate, _ others: [SecCertificate], _ command: FindIdentityCommand)
        -> String?
    {
        let policy: SecPolicy =
            switch command.policy {
            case .basic: SecPolicyCreateBasicX509()
            case .sslClient: SecPolicyCreateSSL(false, nil)
            case .sslServer: SecPolicyCreateSSL(true, command.string as CFString?)
            }
        var trust: SecTrust?
        guard SecTrustCreateWithCertificates([certificate] + others as CFArray, policy, &trust) == errSecSuccess,
            let trust
        else { return "the trust could not be created" }
        var error: CFError?
        return SecTrustEvaluateWithError(trust, &error) ? nil : (error?.localizedDescription ?? "not trusted")
    }

    func keychainPath(_ face: KeychainFace) -> String {
        face.databasePath
    }

    static func name(_ item: KeychainFace.Item<SecCertificate>) -> String {
        item.label ?? SecCertificateCopySubjectSummary(item.reference).map { $0 as String } ?? ""
    }

    static func matches(_ item: KeychainFace.Item<SecCertificate>, name: String?) -> Bool {
        guard let name else { return true }
        return name.isEmpty || self.name(item).range(of: name, options: .caseInsensitive) != nil
    }

    static func matches(_ certificate: SecCertificate, email: String?) -> Bool {
        guard let email else { return true }
        return emails(certificate).contains { $0.caseInsensitiveCompare(email) == .orderedSame }
    }

    static func emails(_ certificate: SecCertificate) -> [String] {
        var addresses: CFArray?
        _ = SecCertificateCopyEmailAddresses(certificate, &addresses)
        return (addresses as? [String]) ?? []
    }

    static func pem(_ certificate: SecCertificate) -> String {
        PEMBlocks.encode(Array(SecCertificateCopyData(certificate) as Data), label: "CERTIFICATE")
    }
}
