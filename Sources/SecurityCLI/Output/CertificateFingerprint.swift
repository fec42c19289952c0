import CryptoKitOpenSSL
import Foundation
import Security

/// A certificate's fingerprints as macOS's `security` prints them: upper-case hex of the digest of the DER.
enum CertificateFingerprint {
    static func sha1Hex(_ certificate: SecCertificate) -> String { hex(certificate, .sha1) }

    static func sha256Hex(_ certificate: SecCertificate) -> String { hex(certificate, .sha256) }

    private static func hex(_ certificate: SecCertificate, _ algorithm: DigestAlgorithm) -> String {
        let der = SecCertificateCopyData(certificate) as Data
        let digest = (try? der.withUnsafeBytes { try algorithm.hash($0) }) ?? []
        return digest.map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }
}
