import KeychainCore
import X509Certificates

extension X509Error {
    /// The status Apple's functions give for this failure: `errSecDecode` for bytes that are not what they should
    /// be, `errSecAuthFailed` for a PKCS#12 passphrase that does not open the file, `errSecInternalComponent`
    /// when OpenSSL itself fails.
    package var status: OSStatus {
        switch self {
        case .malformed: SecurityStatus.decode
        case .wrongPassphrase: SecurityStatus.authFailed
        case .library: SecurityStatus.internalComponent
        }
    }
}
