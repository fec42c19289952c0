import Foundation
import KeychainCore
import LocalAuthentication
import Security
import Testing

/// A search that may not prompt and meets an item needing authentication fails whole, as Apple's: `s3dl_query`
/// goes on past such an item, then the call fails with errSecInteractionNotAllowed. `kSecUseAuthenticationUISkip`
/// leaves such items out instead; attributes alone need no authentication.
@Suite struct NonInteractiveSearchTests {
    private let service = "com.app.non-interactive"

    /// Every item of the service, with its data: the status and the accounts returned.
    private func readAll(_ extra: [String: Any], data: Bool = true) -> (OSStatus, [String]) {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnAttributes as String: true,
            kSecReturnData as String: data,
        ]
        query.merge(extra) { $1 }
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        let accounts = (result as? [[String: Any]])?.compactMap { $0[kSecAttrAccount as String] as? String }
        return (status, (accounts ?? []).sorted())
    }

    @Test func anItemNeedingAPromptFailsTheWholeSearch() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            #expect(addPassword("plain", service: service, secret: "s", flags: nil) == errSecSuccess)
            #expect(addPassword("guarded", service: service, secret: "s", flags: .biometryAny) == errSecSuccess)
            try keychain.authenticators.biometry.script(.match)
            let fail = [kSecUseAuthenticationUI as String: kSecUseAuthenticationUIFail]
            #expect(readAll(fail) == (errSecInteractionNotAllowed, []))
            let quiet = LAContext()
            quiet.interactionNotAllowed = true
            #expect(readAll([kSecUseAuthenticationContext as String: quiet]) == (errSecInteractionNotAllowed, []))
            #expect(try keychain.authenticators.biometry.status().script == [.match])  // no prompt was shown
            // Attributes alone need no authentication.
            #expect(readAll(fail, data: false) == (errSecSuccess, ["guarded", "plain"]))
        }
    }

    @Test func skipLeavesSuchItemsOut() async throws {
        try await withAuthenticatingKeychain { _, _ in
            #expect(addPassword("guarded", service: service, secret: "s", flags: .biometryAny) == errSecSuccess)
            let skip = [kSecUseAuthenticationUI as String: kSecUseAuthenticationUISkip]
            #expect(readAll(skip) == (errSecItemNotFound, []))
            #expect(addPassword("plain", service: service, secret: "s", flags: nil) == errSecSuccess)
            #expect(readAll(skip) == (errSecSuccess, ["plain"]))
        }
    }

    @Test func anAuthenticatedContextReadsEveryItem() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            #expect(addPassword("plain", service: service, secret: "s", flags: nil) == errSecSuccess)
            #expect(addPassword("guarded", service: service, secret: "s", flags: .biometryAny) == errSecSuccess)
            try keychain.authenticators.biometry.script(.match)
            let context = LAContext()
            #expect(await evaluationCode(context, .deviceOwnerAuthenticationWithBiometrics) == nil)
            let extra: [String: Any] = [
                kSecUseAuthenticationContext as String: context,
                kSecUseAuthenticationUI as String: kSecUseAuthenticationUIFail,
            ]
            #expect(readAll(extra) == (errSecSuccess, ["guarded", "plain"]))
        }
    }
}
