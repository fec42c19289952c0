import Foundation
import KeychainCore

/// An identity: a certificate and the private key of its public key. A keychain does not store identities; it
/// finds them by joining certificate items with private key items (`kSecClassIdentity`). Immutable.
///
/// Two identities are equal when their certificates and keys are.
public final class SecIdentity: Hashable, CustomStringConvertible, @unchecked Sendable {  // safe: immutable
    let certificate: SecCertificate
    let privateKey: SecKey

    /// An identity of `certificate` and `privateKey`, which the caller has checked belong together (PKCS#12
    /// import pairs them by their key identifiers; the keychain by `pkhh` and `klbl`).
    package init(certificate: SecCertificate, privateKey: SecKey) {
        self.certificate = certificate
        self.privateKey = privateKey
    }

    public static func == (lhs: SecIdentity, rhs: SecIdentity) -> Bool {
        lhs === rhs || (lhs.certificate == rhs.certificate && lhs.privateKey == rhs.privateKey)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(certificate)
        hasher.combine(privateKey)
    }

    /// The certificate's subject only: never key material.
    public var description: String { "<SecIdentity \(certificate.description)>" }
}

/// The type identifier of `SecIdentity`.
public func SecIdentityGetTypeID() -> CFTypeID { SecTypeIdentifiers.identity }

/// The certificate of an identity.
/// - Parameters:
///   - identityRef: the identity.
///   - certificateRef: receives its certificate.
/// - Returns: `errSecSuccess`.
public func SecIdentityCopyCertificate(
    _ identityRef: SecIdentity, _ certificateRef: UnsafeMutablePointer<SecCertificate?>
) -> OSStatus {
    certificateRef.pointee = identityRef.certificate
    return errSecSuccess
}

/// The private key of an identity.
/// - Parameters:
///   - identityRef: the identity.
///   - privateKeyRef: receives its private key.
/// - Returns: `errSecSuccess`.
public func SecIdentityCopyPrivateKey(_ identityRef: SecIdentity, _ privateKeyRef: UnsafeMutablePointer<SecKey?>)
    -> OSStatus
{
    privateKeyRef.pointee = identityRef.privateKey
    return errSecSuccess
}

/// Creates an identity from a certificate and its private key, without the keychain (iOS 11.2, macOS 10.12).
/// - Parameters:
///   - allocator: nil or `kCFAllocatorDefault`.
///   - certificate: the certificate.
///   - privateKey: the private key whose public key is the certificate's.
/// - Returns: the identity; nil when `privateKey` is not a private key or not the one of the certificate's public
///   key, as Apple documents.
public func SecIdentityCreate(_ allocator: CFAllocator?, _ certificate: SecCertificate, _ privateKey: SecKey)
    -> SecIdentity?
{
    guard privateKey.isPrivate, let certified = SecCertificateCopyKey(certificate),
        let ownPublicKey = SecKeyCopyPublicKey(privateKey), ownPublicKey == certified
    else { return nil }
    return SecIdentity(certificate: certificate, privateKey: privateKey)
}

/// Makes the identity of a certificate from its private key in the keychain: the private key item whose
/// application label (`klbl`) is the certificate's public key hash (`pkhh`), in the caller's access groups.
/// - Parameters:
///   - keychainOrArray: nil (the caller's keychain); this keychain has no other to name.
///   - certificateRef: the certificate.
///   - identityRef: receives the identity.
/// - Returns: `errSecSuccess`; `errSecItemNotFound` when no private key item of the certificate is in the
///   caller's groups; `errSecParam` for a `keychainOrArray` or a certificate whose key is not EC or RSA.
public func SecIdentityCreateWithCertificate(
    _ keychainOrArray: CFTypeRef?, _ certificateRef: SecCertificate,
    _ identityRef: UnsafeMutablePointer<SecIdentity?>
) -> OSStatus {
    identityRef.pointee = nil
    return SecurityRuntime.perform("SecIdentityCreateWithCertificate") { keychain in
        if keychainOrArray != nil {
            throw KeychainError.param.because(
                "keychainOrArray must be nil: this keychain searches the caller's access groups, not keychain files")
        }
        guard let publicKeyHash = certificateRef.itemAttributes?.publicKeyHash else {
            throw KeychainError.param.because("the certificate's public key is not an EC or RSA key")
        }
        let query = ItemQuery(
            itemClass: .key, attributes: [.applicationLabel: .data([UInt8](publicKeyHash)), .keyClass: .number(1)],
            synchronizable: .any, limit: .one, returns: .data)
        guard case .key(let value)? = try keychain.search(query).results.first?.value,
            let privateKey = SecKey(itemValue: value)
        else {
            throw KeychainError.decode.because("the certificate's private key item does not hold a key")
        }
        identityRef.pointee = SecIdentity(certificate: certificateRef, privateKey: privateKey)
    }
}
