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
            // No prompt could help (biometry needs a passcode), so the answer is a failure, not a refused prompt.
            #expect(read("b", context: context, failWithoutUI: true) == errSecAuthFailed)
            #expect(read("b", context: context, failWithoutUI: false) == errSecAuthFailed)
        }
    }

    /// After the passcode's removal, an item whose every way in needs the passcode it was stored under, or
    /// biometry where none is enrolled, is answered at once: no prompt that cannot open it, no entry consumed.
    @Test func itemsBoundToARemovedPasscodeFailWithoutAPrompt() async throws {
        try await withAuthenticatingKeychain(enrolled: false) { keychain, _ in
            for (account, flags) in [("up", SecAccessControlCreateFlags.userPresence), ("dp", .devicePasscode)] {
                var error: Unmanaged<CFError>?
                let add: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                    kSecAttrAccount as String: account, kSecValueData as String: Data("s".utf8),
                    kSecAttrAccessControl as String: SecAccessControlCreateWithFlags(
                        nil, kSecAttrAccessibleWhenUnlocked, flags, &error)!,
                ]
                #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            }
            _ = try keychain.removePasscode(current: Secret(Array("1234".utf8)))
            try keychain.setPasscode(Secret(Array("5678".utf8)))
            let prompt = keychain.authenticators.passcodePrompt
            prompt.enter("5678")
            prompt.enter("5678")
            // The devicePasscode item went with the passcode; the userPresence one stays, for its biometry alternative.
            #expect(read("dp", context: LAContext(), failWithoutUI: false) == errSecItemNotFound)
            #expect(read("up", context: LAContext(), failWithoutUI: true) == errSecAuthFailed)
            #expect(read("up", context: LAContext(), failWithoutUI: false) == errSecAuthFailed)
            // Both entries are still queued.
            #expect(await evaluationCode(LAContext(), .deviceOwnerAuthentication) == nil)
            #expect(await evaluationCode(LAContext(), .deviceOwnerAuthentication) == nil)
        }
    }
}
