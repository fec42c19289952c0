import Foundation
import KeychainCore
import KeychainCrypto
import Security
import TerminalIO

extension PasswordPrompt {
    /// `import`'s prompt for a PKCS#12 file's passphrase.
    public static let importPassphrase = PasswordPrompt("passphrase of the PKCS#12 file: ")
    /// `export -f pkcs12`'s prompts.
    public static let exportPassphrase = PasswordPrompt(
        "passphrase for the PKCS#12 file: ", confirmation: "retype passphrase for the PKCS#12 file: ")
}

extension ImportCommand {
    /// Whether the file is read as PKCS#12 (and a passphrase asked for): `-f pkcs12`, or a `.p12`/`.pfx` name.
    var isPKCS12ByName: Bool {
        format == "pkcs12" || file.lowercased().hasSuffix(".p12") || file.lowercased().hasSuffix(".pfx")
    }
}

extension SecurityCommandRunner {
    /// What a file to import holds.
    private struct ImportedItems {
        var certificates: [SecCertificate] = []
        var keys: [SecKey] = []
        /// A PKCS#12 file's other certificates (its CA's): one already in the keychain is left as it is.
        var chain: [SecCertificate] = []
        /// The PKCS#12 file's key certificate's friendlyName, which labels its key.
        var label: String?
        var isIdentity = false
    }

    /// `import FILE`: certificates (PEM or DER), private keys (PEM or DER PKCS #8, PEM PKCS #1 RSA) and PKCS#12
    /// files (key, certificate and chain; asks for the passphrase when `-P` is not given) go in as items, all of
    /// them or, on a failure, none. A chain certificate already there is skipped (a second identity from the same
    /// CA), unless nothing else is new.
    func importItems(_ command: ImportCommand, identity: IdentityOptions) throws(CommandFailure) {
        let operation = "SecKeychainItemImport"
        var bytes = try CertificateFiles.contents(of: command.file, operation: operation)
        defer { PosixIO.wipe(&bytes) }
        let items = try read(bytes, command, operation: operation)
        let face = try face(identity)
        var added: [Data] = []
        for key in items.keys {
            var attributes: [String: Any] = [kSecClass as String: kSecClassKey, kSecValueRef as String: key]
            if let label = items.label { attributes[kSecAttrLabel as String] = label }
            try add(face, attributes, &added, operation)
        }
        for certificate in items.certificates { try add(face, Self.item(certificate), &added, operation) }
        var present = 0
        for certificate in items.chain {
            if try !add(face, Self.item(certificate), &added, operation, skippingDuplicate: true) { present += 1 }
        }
        guard !added.isEmpty else {
            throw CommandFailure(
                operation,
                KeychainError.duplicateItem.because("everything in \(command.file) is already in the keychain"))
        }
        let identities = items.isIdentity ? 1 : 0
        let certificates = items.certificates.count + items.chain.count - present - identities
        let keys = items.keys.count - identities
        if format.json {
            output.writeLine(
                JSONText.encode([
                    "identities": identities, "certificates": certificates, "keys": keys, "alreadyPresent": present,
                ]))
            return
        }
        if identities > 0 { output.writeLine("1 identity imported.") }
        if keys > 0 { output.writeLine("\(keys) key\(keys == 1 ? "" : "s") imported.") }
        if certificates > 0 { output.writeLine("\(certificates) certificate\(certificates == 1 ? "" : "s") imported.") }
        if present > 0 {
            output.writeLine("\(present) certificate\(present == 1 ? "" : "s") already in the keychain.")
        }
    }

    private static func item(_ certificate: SecCertificate) -> [String: Any] {
        [kSecClass as String: kSecClassCertificate, kSecValueRef as String: certificate]
    }

    /// Adds one item and notes its persistent reference; answers false for a duplicate `skippingDuplicate` lets
    /// pass. On another failure it deletes the items this import added, by those references, then fails.
    @discardableResult
    private func add(
        _ face: KeychainFace, _ attributes: [String: Any], _ added: inout [Data], _ operation: String,
        skippingDuplicate: Bool = false
    ) throws(CommandFailure) -> Bool {
        let (status, reference) = face.addReturningPersistentReference(attributes)
        if status == errSecDuplicateItem && skippingDuplicate { return false }
        guard status == errSecSuccess, let reference else {
            // Not by value: for the owner that would also match a copy in another access group.
            for addedReference in added.reversed() {
                try? face.delete(persistentReference: addedReference, operation: operation)
            }
            if status != errSecSuccess { throw KeychainFace.failure(operation, status) }
            throw CommandFailure(
                operation,
                KeychainError(SecurityStatus.internalComponent).because("SecItemAdd returned no persistent reference"))
        }
        added.append(reference)
        return true
    }

    private func read(_ bytes: [UInt8], _ command: ImportCommand, operation: String) throws(CommandFailure)
        -> ImportedItems
    {
        var items = ImportedItems()
        if !command.isPKCS12ByName, var pem = PEMBlocks(bytes) {
            defer { for index in pem.blocks.indices { PosixIO.wipe(&pem.blocks[index].der) } }
            for block in pem.blocks {
                switch block.label {
                case "CERTIFICATE", "X509 CERTIFICATE":
                    guard let certificate = SecCertificateCreateWithData(nil, Data(block.der) as CFData) else {
                        throw decodeFailure(
                            operation, because: "a CERTIFICATE block of \(command.file) does not parse")
                    }
                    items.certificates.append(certificate)
                case "PRIVATE KEY":
                    guard let key = try? SecKey(pkcs8PrivateKey: SecureBytes(block.der)) else {
                        throw decodeFailure(
                            operation, because: "the PRIVATE KEY of \(command.file) is not RSA or EC P-256/384/521")
                    }
                    items.keys.append(key)
                case "RSA PRIVATE KEY":
                    let attributes = [kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeyClass: kSecAttrKeyClassPrivate]
                    guard let key = SecKeyCreateWithData(Data(block.der) as CFData, attributes as CFDictionary, nil)
                    else {
                        throw decodeFailure(operation, because: "the RSA PRIVATE KEY of \(command.file) does not parse")
                    }
                    items.keys.append(key)
                case "ENCRYPTED PRIVATE KEY", "EC PRIVATE KEY":
                    throw CommandFailure(
                        operation,
                        KeychainError.unimplemented.because(
                            "\(block.label) blocks are not read here; convert the key with "
                                + "`openssl pkcs8 -topk8 -nocrypt`, or import a PKCS#12 file"))
                default: continue
                }
            }
            guard !items.certificates.isEmpty || !items.keys.isEmpty else {
                throw decodeFailure(operation, because: "\(command.file) holds no certificate or key")
            }
            return items
        }
        if !command.isPKCS12ByName {
            if let certificate = SecCertificateCreateWithData(nil, Data(bytes) as CFData) {
                items.certificates = [certificate]
                return items
            }
            if let key = try? SecKey(pkcs8PrivateKey: SecureBytes(bytes)) {
                items.keys = [key]
                return items
            }
        }
        let passphrase = try secret(
            command.passphrase ?? .prompt, prompt: .importPassphrase, operation: operation)
        let contents: PKCS12Items
        do {
            // The passphrase is text to PKCS#12 (OpenSSL turns it into BMPString); Swift strings are not wiped.
            contents = try PKCS12Items.open(Data(bytes), passphrase: String(decoding: passphrase.bytes, as: UTF8.self))
        } catch {
            throw CommandFailure(operation, KeychainError(error.status).because(error.detail))
        }
        if let key = contents.privateKey {
            guard let certificate = contents.certificate else {
                throw decodeFailure(operation, because: "the PKCS#12 file's key has no certificate")
            }
            items.keys = [key]
            items.certificates = [certificate]
            items.isIdentity = true
            items.label = contents.label
        } else if let certificate = contents.certificate {
            items.certificates = [certificate]
        }
        items.chain = contents.chain
        guard !items.certificates.isEmpty || !items.chain.isEmpty else {
            throw decodeFailure(operation, because: "the PKCS#12 file is empty")
        }
        return items
    }

    private func decodeFailure(_ operation: String, because reason: KeychainError.Reason) -> CommandFailure {
        CommandFailure(operation, KeychainError.decode.because(reason))
    }
}
