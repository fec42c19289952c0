import CryptoKit
import Foundation
import LocalAuthentication
import Security
import Testing

/// Without an enclave (no TPM back end exists yet), SecureEnclave says so and its keys fail; nothing pretends.
@Suite struct CryptoKitSecureEnclaveTests {
    @Test func isNotAvailable() {
        #expect(SecureEnclave.isAvailable == false)
    }

    @Test func guardedApplicationCodeSkipsTheEnclave() throws {
        #expect(try signInSecureEnclave(Data("payload".utf8)) == nil)
        #expect(try agreeInSecureEnclave(with: P256.KeyAgreement.PrivateKey().publicKey) == nil)
    }

    @Test func keysCannotBeCreatedOrRestored() {
        let unavailable = CryptoKitError.underlyingCoreCryptoError(error: -4)
        #expect(throws: unavailable) { try SecureEnclave.P256.Signing.PrivateKey() }
        #expect(throws: unavailable) { try SecureEnclave.P256.KeyAgreement.PrivateKey() }
        let accessControl = SecAccessControlCreateWithFlags(
            nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, [.privateKeyUsage, .userPresence], nil)!
        #expect(throws: unavailable) {
            try SecureEnclave.P256.Signing.PrivateKey(
                compactRepresentable: false, accessControl: accessControl, authenticationContext: LAContext())
        }
        // A blob from elsewhere (here, an ordinary key's bytes) is never taken for an enclave key.
        let blob = P256.Signing.PrivateKey().rawRepresentation
        #expect(throws: unavailable) { try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: blob) }
        #expect(throws: unavailable) {
            try SecureEnclave.P256.KeyAgreement.PrivateKey(dataRepresentation: blob, authenticationContext: nil)
        }
    }
}
