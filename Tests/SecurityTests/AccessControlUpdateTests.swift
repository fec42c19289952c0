import Foundation
import KeychainCore
import LocalAuthentication
import Security
import Testing

/// `SecItemUpdate` of items with access-control constraints: attributes alone need no authentication; a new
/// secret, a new access control or a new class need the old policy's authentication, all or nothing.
@Suite struct AccessControlUpdateTests {
    private func control(
        _ flags: SecAccessControlCreateFlags,
        _ protection: CFString = kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
    ) -> SecAccessControl {
        var error: Unmanaged<CFError>?
        return SecAccessControlCreateWithFlags(nil, protection, flags, &error)!
    }

    private func add(_ account: String, _ flags: SecAccessControlCreateFlags?, context: LAContext? = nil) -> OSStatus {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "com.app.upd",
            kSecAttrAccount as String: account, kSecValueData as String: Data("secret-\(account)".utf8),
        ]
        if let flags { query[kSecAttrAccessControl as String] = control(flags) }
        if let context { query[kSecUseAuthenticationContext as String] = context }
        return SecItemAdd(query as CFDictionary, nil)
    }

    private func update(
        _ account: String?, _ changes: [String: Any], context: LAContext? = nil,
        ui: CFString? = nil
    ) -> OSStatus {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "com.app.upd",
        ]
        if let account { query[kSecAttrAccount as String] = account }
        if let context { query[kSecUseAuthenticationContext as String] = context }
        if let ui { query[kSecUseAuthenticationUI as String] = ui }
        return SecItemUpdate(query as CFDictionary, changes as CFDictionary)
    }

    private func read(_ account: String, context: LAContext? = nil, ui: CFString? = nil) -> (OSStatus, String?) {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "com.app.upd",
            kSecAttrAccount as String: account, kSecReturnData as String: true,
        ]
        if let context { query[kSecUseAuthenticationContext as String] = context }
        if let ui { query[kSecUseAuthenticationUI as String] = ui }
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return (status, (result as? Data).map { String(decoding: $0, as: UTF8.self) })
    }

    /// The item's attributes, read without authentication.
    private func attributes(_ account: String) throws -> [String: Any] {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "com.app.upd",
            kSecAttrAccount as String: account, kSecReturnAttributes as String: true,
        ]
        var result: AnyObject?
        #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
        return try #require(result as? [String: Any])
    }

    private func storedControl(_ account: String) throws -> SecAccessControl? {
        try attributes(account)[kSecAttrAccessControl as String] as? SecAccessControl
    }

    @Test func attributesAloneNeedNoAuthentication() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            #expect(add("a", .biometryCurrentSet) == errSecSuccess)
            let label = [kSecAttrLabel as String: "renamed"]
            #expect(update("a", label, ui: kSecUseAuthenticationUIFail) == errSecSuccess)
            #expect(update("a", label, ui: kSecUseAuthenticationUISkip) == errSecParam)
            #expect(try attributes("a")[kSecAttrLabel as String] as? String == "renamed")
            #expect(try storedControl("a") == control(.biometryCurrentSet))
            #expect(try keychain.authenticators.biometry.status().script.isEmpty)
            try keychain.authenticators.biometry.script(.match)
            #expect(read("a") == (errSecSuccess, "secret-a"))
        }
    }

    @Test func newSecretNeedsTheReadsAuthentication() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            let biometry = keychain.authenticators.biometry
            #expect(add("a", .biometryCurrentSet) == errSecSuccess)
            let data = [kSecValueData as String: Data("new".utf8)]
            #expect(update("a", data, ui: kSecUseAuthenticationUIFail) == errSecInteractionNotAllowed)
            #expect(update("a", data, ui: kSecUseAuthenticationUISkip) == errSecParam)
            try biometry.script(.cancel)
            #expect(update("a", data) == errSecUserCanceled)
            try biometry.script(.noMatch)
            #expect(update("a", data) == errSecAuthFailed)
            try biometry.script(.match)
            #expect(read("a") == (errSecSuccess, "secret-a"))  // nothing was changed
            try biometry.script(.match)
            #expect(update("a", data) == errSecSuccess)
            #expect(read("a", ui: kSecUseAuthenticationUIFail).0 == errSecInteractionNotAllowed)  // still constrained
            let context = LAContext()
            try biometry.script(.match)
            #expect(try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "r"))
            #expect(read("a", context: context, ui: kSecUseAuthenticationUIFail) == (errSecSuccess, "new"))
            // An evaluated context is reused: no prompt.
            let again = [kSecValueData as String: Data("newer".utf8)]
            #expect(update("a", again, context: context, ui: kSecUseAuthenticationUIFail) == errSecSuccess)
            #expect(read("a", context: context, ui: kSecUseAuthenticationUIFail) == (errSecSuccess, "newer"))
        }
    }

    @Test func changingTheAccessControlReprotectsTheSecret() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            let prompt = keychain.authenticators.passcodePrompt
            let biometry = keychain.authenticators.biometry
            #expect(add("a", .devicePasscode) == errSecSuccess)
            let change = [kSecAttrAccessControl as String: control(.biometryAny)]
            #expect(update("a", change, ui: kSecUseAuthenticationUIFail) == errSecInteractionNotAllowed)
            prompt.cancel()
            #expect(update("a", change) == errSecUserCanceled)
            prompt.enter("0000")
            #expect(update("a", change) == errSecAuthFailed)
            #expect(try storedControl("a") == control(.devicePasscode))
            prompt.enter("1234")
            #expect(update("a", change) == errSecSuccess)
            #expect(try storedControl("a") == control(.biometryAny))
            prompt.enter("1234")  // the passcode no longer opens it: only biometry is asked for
            #expect(read("a").0 == errSecUserCanceled)
            try biometry.script(.match)
            #expect(read("a") == (errSecSuccess, "secret-a"))
            // A different class keeps the flags and re-seals under the new class.
            try biometry.script(.match)
            #expect(
                update("a", [kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly])
                    == errSecSuccess)
            #expect(try storedControl("a") == control(.biometryAny, kSecAttrAccessibleWhenUnlockedThisDeviceOnly))
            try biometry.script(.match)
            #expect(read("a") == (errSecSuccess, "secret-a"))
        }
    }

    @Test func addingAndRemovingConstraints() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            #expect(add("plain", nil) == errSecSuccess)
            // Adding constraints needs no authentication (the secret was readable without).
            let protect = [kSecAttrAccessControl as String: control(.biometryAny)]
            #expect(update("plain", protect, ui: kSecUseAuthenticationUIFail) == errSecSuccess)
            #expect(read("plain", ui: kSecUseAuthenticationUIFail).0 == errSecInteractionNotAllowed)
            // Removing them needs the old policy's authentication.
            let release = [kSecAttrAccessControl as String: control([], kSecAttrAccessibleWhenUnlocked)]
            #expect(update("plain", release, ui: kSecUseAuthenticationUIFail) == errSecInteractionNotAllowed)
            try keychain.authenticators.biometry.script(.match)
            #expect(update("plain", release) == errSecSuccess)
            #expect(try storedControl("plain") == nil)
            #expect(
                try attributes("plain")[kSecAttrAccessible as String] as? String
                    == kSecAttrAccessibleWhenUnlocked as String)
            #expect(read("plain", ui: kSecUseAuthenticationUIFail) == (errSecSuccess, "secret-plain"))
        }
    }

    @Test func allOrNothingAcrossMatchesWithOnePrompt() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            let prompt = keychain.authenticators.passcodePrompt
            #expect(add("p1", .devicePasscode) == errSecSuccess)
            #expect(add("p2", .devicePasscode) == errSecSuccess)
            let context = LAContext()
            context.setCredential(Data("pw".utf8), type: .applicationPassword)
            #expect(add("ap", .applicationPassword, context: context) == errSecSuccess)
            let change = [kSecAttrAccessControl as String: control(.biometryAny)]
            prompt.enter("1234")
            // The application-password item cannot be opened without its password: nothing changes.
            #expect(update(nil, change) == errSecAuthFailed)
            for account in ["p1", "p2"] { #expect(try storedControl(account) == control(.devicePasscode)) }
            #expect(try storedControl("ap") == control(.applicationPassword))
            prompt.enter("1234")  // one entry for every match: the update shares one context
            #expect(update(nil, change, context: context) == errSecSuccess)
            for account in ["p1", "p2", "ap"] { #expect(try storedControl(account) == control(.biometryAny)) }
            try keychain.authenticators.biometry.script(.match)
            #expect(read("ap") == (errSecSuccess, "secret-ap"))
        }
    }

    @Test func validationFollowsApple() async throws {
        try await withAuthenticatingKeychain { _, _ in
            #expect(add("a", .biometryAny) == errSecSuccess)
            #expect(update("a", [kSecAttrSynchronizable as String: true]) == errSecParam)
            let conflicting: [String: Any] = [
                kSecAttrAccessControl as String: control(.devicePasscode),
                kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked,
            ]
            #expect(update("a", conflicting) == errSecParam)
            let sameClass: [String: Any] = [
                kSecAttrAccessControl as String: control(.devicePasscode),
                kSecAttrAccessible as String: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
            ]
            #expect(update("a", sameClass) == errSecParam)
            #expect(add("b", nil) == errSecSuccess)
            let always = [kSecAttrAccessControl as String: control(.biometryAny, kSecAttrAccessibleAlways)]
            #expect(update("b", always) == errSecParam)
            // .privateKeyUsage: accepted by SecAccessControlCreateWithFlags, refused on a password item.
            var error: Unmanaged<CFError>?
            let keyUsage = SecAccessControlCreateWithFlags(
                nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, [.privateKeyUsage, .biometryAny], &error)
            #expect(keyUsage != nil && error == nil)
            #expect(update("a", [kSecAttrAccessControl as String: keyUsage as Any]) == errSecParam)
            let stored = try storedControl("a")
            #expect(stored == control(.biometryAny))
        }
    }
}
