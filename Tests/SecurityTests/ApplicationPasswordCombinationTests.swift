import Foundation
import KeychainCore
import LocalAuthentication
import Security
import Testing

/// The application password is a requirement on top of an item's other constraints, never one of them (Apple:
/// it "may be specified in addition to any constraints"): with `.or` it still joins every alternative.
@Suite struct ApplicationPasswordCombinationTests {
    private let service = "com.app.password-combination"

    private func passwordContext(_ password: String = "pw") -> LAContext {
        let context = LAContext()
        context.setCredential(Data(password.utf8), type: .applicationPassword)
        return context
    }

    private func add(_ account: String, _ flags: SecAccessControlCreateFlags) -> OSStatus {
        var error: Unmanaged<CFError>?
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecAttrAccount as String: account, kSecValueData as String: Data("secret-\(account)".utf8),
            kSecAttrAccessControl as String: SecAccessControlCreateWithFlags(
                nil, kSecAttrAccessibleWhenUnlocked, flags, &error)!,
            kSecUseAuthenticationContext as String: passwordContext(),
        ]
        return SecItemAdd(query as CFDictionary, nil)
    }

    private func read(_ account: String, context: LAContext? = nil, failWithoutUI: Bool = false) -> (OSStatus, String?)
    {
        var extra: [String: Any] = [:]
        if let context { extra[kSecUseAuthenticationContext as String] = context }
        if failWithoutUI { extra[kSecUseAuthenticationUI as String] = kSecUseAuthenticationUIFail }
        return readPassword(account, service: service, extra: extra)
    }

    @Test func biometryOrPasswordNeedsThePasswordAndBiometry() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            let biometry = keychain.authenticators.biometry
            #expect(add("any-or-pw", [.biometryAny, .or, .applicationPassword]) == errSecSuccess)
            // The password alone asks for biometry, which the call forbids.
            #expect(read("any-or-pw", context: passwordContext(), failWithoutUI: true).0 == errSecInteractionNotAllowed)
            // Biometry alone: no prompt can supply the password.
            try biometry.script(.match)
            #expect(read("any-or-pw").0 == errSecAuthFailed)
            #expect(try biometry.status().script == [.match])  // nothing was asked
            #expect(read("any-or-pw", context: passwordContext()) == (errSecSuccess, "secret-any-or-pw"))
            try biometry.script(.match)
            #expect(read("any-or-pw", context: passwordContext("other")).0 == errSecAuthFailed)
        }
    }

    @Test func passcodeOrPasswordNeedsThePasswordAndThePasscode() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            #expect(add("pc-or-pw", [.devicePasscode, .or, .applicationPassword]) == errSecSuccess)
            #expect(read("pc-or-pw", context: passwordContext(), failWithoutUI: true).0 == errSecInteractionNotAllowed)
            keychain.authenticators.passcodePrompt.enter("1234")
            #expect(read("pc-or-pw").0 == errSecAuthFailed)  // the entry is left for the next prompt
            #expect(read("pc-or-pw", context: passwordContext()) == (errSecSuccess, "secret-pc-or-pw"))
        }
    }

    @Test func everyAlternativeOfAnOrTakesThePassword() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            #expect(add("three", [.biometryAny, .or, .devicePasscode, .applicationPassword]) == errSecSuccess)
            #expect(read("three", context: passwordContext(), failWithoutUI: true).0 == errSecInteractionNotAllowed)
            // Either other factor, with the password, opens it.
            try keychain.authenticators.biometry.script(.match)
            #expect(read("three", context: passwordContext()) == (errSecSuccess, "secret-three"))
            try keychain.authenticators.biometry.script(.fallback)
            keychain.authenticators.passcodePrompt.enter("1234")
            #expect(read("three", context: passwordContext()) == (errSecSuccess, "secret-three"))
        }
    }
}
