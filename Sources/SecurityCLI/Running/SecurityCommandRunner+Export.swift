import Foundation
import KeychainCore
import KeychainCrypto
import Security
import TerminalIO

#if canImport(Glibc)
    import Glibc
#endif

extension SecurityCommandRunner {
    /// `export`: certificates, private keys or identities as a PEM sequence (certificates, then PKCS #8 keys) or
    /// a PKCS#12 file (one identity and the other certificates, or certificates alone), to standard output or a
    /// new file (`-o`, created with mode 0600).
    func exportItems(_ command: ExportCommand, identity: IdentityOptions) throws(CommandFailure) {
        let operation = "SecKeychainItemExport"
        let face = try face(identity)
        let allCertificates = try face.certificates(operation: operation)
        let allKeys = try face.privateKeys(operation: operation)
        let identities = StoredIdentity.pairs(allCertificates, allKeys)
        var certificates: [SecCertificate]
        var keys: [SecKey]
        switch command.type {
        case .certs: (certificates, keys) = (allCertificates.map(\.reference), [])
        case .privKeys: (certificates, keys) = ([], allKeys.map(\.reference))
        case .identities:
            (certificates, keys) = (identities.map(\.certificate.reference), identities.map(\.key.reference))
        case .all: (certificates, keys) = (allCertificates.map(\.reference), allKeys.map(\.reference))
        }
        guard !certificates.isEmpty || !keys.isEmpty else { throw KeychainFace.failure(operation, errSecItemNotFound) }
        var bytes: [UInt8]
        switch command.effectiveFormat {
        case .pemseq:
            bytes = Array(certificates.map(Self.pem).joined().utf8)
            for key in keys {
                guard let der = key.pkcs8PrivateKey else { continue }
                var block = der.bytes
                bytes += Array(PEMBlocks.encode(block, label: "PRIVATE KEY").utf8)
                PosixIO.wipe(&block)
            }
        case .pkcs12:
            guard keys.count <= 1 else {
                throw CommandFailure(
                    operation,
                    KeychainError.unimplemented.because(
                        "\(keys.count) private keys: a PKCS#12 file written here holds one identity; "
                            + "delete or export the others apart"))
            }
            let key = keys.first
            let pair = key.flatMap { key in identities.first { $0.key.reference == key } }
            if key != nil, pair == nil {
                throw CommandFailure(
                    operation,
                    KeychainError.param.because(
                        "the private key has no certificate in the keychain; export it with -f pemseq"))
            }
            let passphrase = try secret(
                command.passphrase ?? .prompt, prompt: .exportPassphrase, operation: operation)
            let leaf = pair?.certificate.reference
            do {
                bytes = Array(
                    try PKCS12Export.data(
                        key: key, certificate: leaf, chain: certificates.filter { $0 != leaf },
                        label: pair.map { Self.name($0.certificate) },
                        passphrase: String(decoding: passphrase.bytes, as: UTF8.self)))
            } catch {
                throw CommandFailure(operation, KeychainError(error.status).because(error.detail))
            }
        }
        defer { PosixIO.wipe(&bytes) }
        if let file = command.outputFile {
            try write(bytes, to: file, operation: operation)
            if format.json {
                output.writeLine(
                    JSONText.encode([
                        "file": file, "certificates": certificates.count, "keys": keys.count,
                        "format": command.effectiveFormat.rawValue,
                    ]))
            }
        } else {
            output.write(bytes)
        }
    }

    /// Writes a new file readable by its owner only; an existing file is never replaced.
    private func write(_ bytes: [UInt8], to path: String, operation: String) throws(CommandFailure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw CommandFailure(operation, KeychainError.io.because("cannot create \(path): \(reason)"))
        }
        defer { close(descriptor) }
        let written = bytes.withUnsafeBytes { PosixIO.writeAll(descriptor, $0) }
        guard written else {
            throw CommandFailure(operation, KeychainError.io.because("cannot write \(path)"))
        }
    }

    /// `create-keypair NAME`: a key pair whose private key is stored with the label NAME, as an app's
    /// `SecKeyCreateRandomKey` with `kSecAttrIsPermanent` does.
    func createKeypair(_ command: CreateKeypairCommand, identity: IdentityOptions) throws(CommandFailure) {
        let operation = "SecKeyCreateRandomKey"
        let face = try face(identity)
        let type: CFString = command.algorithm == .rsa ? kSecAttrKeyTypeRSA : kSecAttrKeyTypeECSECPrimeRandom
        let size = command.size ?? (command.algorithm == .rsa ? 2048 : 256)
        let parameters = face.scoped([
            kSecAttrKeyType as String: type, kSecAttrKeySizeInBits as String: size,
            kSecAttrIsPermanent as String: true, kSecAttrLabel as String: command.name,
        ])
        var error: Unmanaged<CFError>?
        guard let key = face.run({ SecKeyCreateRandomKey(parameters as CFDictionary, &error) }) else {
            let failure = error?.takeRetainedValue()
            let status = OSStatus(truncatingIfNeeded: failure?.code ?? Int(errSecParam))
            // The key's own error text is shown as it is.
            let reason =
                failure.map { KeychainError.Reason(verbatim: $0.localizedDescription) }
                ?? KeychainError.Reason("no key")
            throw CommandFailure(operation, KeychainError(status).because(reason))
        }
        if format.json {
            let publicKey = SecKeyCopyPublicKey(key).flatMap { SecKeyCopyExternalRepresentation($0, nil) } as Data?
            output.writeLine(
                JSONText.encode([
                    "label": command.name, "algorithm": command.algorithm.rawValue, "size": size,
                    "publicKey": publicKey.map { "0x" + $0.map { String(format: "%02x", $0) }.joined() } ?? "",
                ]))
        }
    }
}
