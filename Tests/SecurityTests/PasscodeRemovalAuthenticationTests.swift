import Foundation
import KeychainCore
import LocalAuthentication
import Security
import Testing

/// Biometry counts only while a passcode is set (Apple's biometry needs one): an authentication a context held
/// from before the passcode's removal opens nothing after it.
@Suite struct PasscodeRemovalAuthenticationTests {
    private let service = "com.app.passcode-removal"

    private func read(_ account: String, context: LAContext, failWithoutUI: Bool) -> OSStatus {
        var extra: [String: Any] = [kSecUseAuthenticationContext as String: context]
        if failWithoutUI { extra[kSecUseAuthenticationUI as String] = kSecUseAuthenticationUIFail }
        return readPassword(account, service: service, extra: extra).0
    }

    @Test func aBiometryAuthenticationHeldAcrossPasscodeRemovalCountsForNothing() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            var error: Unmanaged<CFError>?
            let control = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .biometryAny, &error)!
            let add: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                kSecAttrAccount as String: "b", kSecValueData as String: Data("s".utf8),
                kSecAttrAccessControl as String: control,
            ]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            let context = LAContext()
            try keychain.authenticators.biometry.script(.match)
            #expect(read("b", context: context, failWithoutUI: true) == errSecInteractionNotAllowed)
            #expect(read("b", context: context, failWithoutUI: false) == errSecSuccess)
            _ = try keychain.removePasscode(current: Secret(Array("1234".utf8)))
            #expect(
                availabilityCode(context, .deviceOwnerAuthenticationWithBiometrics) == LAError.passcodeNotSet.rawValue)
            #expect(read("b", context: context, failWithoutUI: true) == errSecInteractionNotAllowed)
            #expect(read("b", context: context, failWithoutUI: false) == errSecAuthFailed)
        }
    }
}
