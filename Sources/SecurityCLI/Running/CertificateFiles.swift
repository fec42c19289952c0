import Foundation
import KeychainCore
import Security

/// Certificates read from files the command is given: DER (one certificate) or PEM (every CERTIFICATE block).
enum CertificateFiles {
    /// The certificates of `path`, in the file's order.
    /// - Throws: `CommandFailure` of `operation`: errSecIO when the file cannot be read, errSecDecode when it
    ///   holds no certificate.
    static func read(_ path: String, operation: String) throws(CommandFailure) -> [SecCertificate] {
        let bytes = try contents(of: path, operation: operation)
        if let pem = PEMBlocks(bytes) {
            let certificates = pem.blocks.filter { $0.label == "CERTIFICATE" || $0.label == "X509 CERTIFICATE" }
                .compactMap { SecCertificateCreateWithData(nil, Data($0.der) as CFData) }
            if !certificates.isEmpty { return certificates }
        } else if let certificate = SecCertificateCreateWithData(nil, Data(bytes) as CFData) {
            return [certificate]
        }
        throw CommandFailure(
            operation, KeychainError.decode.because("\(path) holds no certificate (PEM or DER)"))
    }

    /// The bytes of a file, or errSecIO naming it.
    static func contents(of path: String, operation: String) throws(CommandFailure) -> [UInt8] {
        do {
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            // Foundation's failure reason is the system's text, shown as it is.
            let reason =
                (error as NSError).localizedFailureReason.map(KeychainError.Reason.init(verbatim:))
                ?? KeychainError.Reason("it cannot be read")
            throw CommandFailure(operation, KeychainError.io.because("cannot read \(path): \(reason)"))
        }
    }
}
