import Foundation
import KeychainCore
import LocalAuthentication
import Security
import Testing

/// Items with access-control constraints through the SecItem functions, against the simulated authenticators.
@Suite struct AccessControlItemTests {
    private func control(
        _ flags: SecAccessControlCreateFlags,
        _ protection: CFString = kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
    ) -> SecAccessControl {
        var error: Unmanaged<CFError>?
        return SecAccessControlCreateWithFlags(nil, protection, flags, &error)!
    }

    private func add(
        _ account: String, _ flags: SecAccessControlCreateFlags, context: LAContext? = nil,
        extra: [String: Any] = [:]
    ) -> OSStatus {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "com.app.auth",
            kSecAttrAccount as String: account, kSecAttrAccessControl as String: control(flags),
            kSecValueData as String: Data("secret-\(account)".utf8),
        ]
        if let context { query[kSecUseAuthenticationContext as String] = context }
        query.merge(extra) { $1 }
        return SecItemAdd(query as CFDictionary, nil)
    }

    /// Reads `account`'s secret: the status and the text.
    private func read(
        _ account: String, context: LAContext? = nil, ui: CFString? = nil, extra: [String: Any] = [:]
    ) -> (OSStatus, String?) {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "com.app.auth",
            kSecAttrAccount as String: account, kSecReturnData as String: true,
            kSecMatchLimit as String: kSecMatchLimitOne,
        ]
        if let context { query[kSecUseAuthenticationContext as String] = context }
        if let ui { query[kSecUseAuthenticationUI as String] = ui }
        query.merge(extra) { $1 }
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return (status, (result as? Data).map { String(decoding: $0, as: UTF8.self) })
    }

    @Test func biometryOutcomesGiveApplesCodes() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            let biometry = keychain.authenticators.biometry
            #expect(add("a", .biometryCurrentSet) == errSecSuccess)
            try biometry.script(.match)
            #expect(read("a") == (errSecSuccess, "secret-a"))
            try biometry.script(.noMatch)
            #expect(read("a").0 == errSecAuthFailed)
            try biometry.script(.cancel)
            #expect(read("a").0 == errSecUserCanceled)
            #expect(read("a").0 == errSecUserCanceled)  // nothing scripted: the prompt is dismissed
            #expect(read("a", ui: kSecUseAuthenticationUIFail).0 == errSecInteractionNotAllowed)
            #expect(read("a", ui: kSecUseAuthenticationUISkip).0 == errSecItemNotFound)
            try biometry.script(.noMatch, .noMatch, .noMatch, .noMatch)
            for _ in 0..<4 { #expect(read("a").0 == errSecAuthFailed) }
            try biometry.script(.match)
            #expect(read("a").0 == errSecAuthFailed)  // locked out after five failures
            #expect(try biometry.status().script == [.match])
        }
    }

    @Test func attributesNeedNoAuthenticationAndCarryTheAccessControl() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            #expect(add("a", [.biometryAny, .or, .devicePasscode]) == errSecSuccess)
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "a",
                kSecReturnAttributes as String: true,
            ]
            var result: AnyObject?
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
            let attributes = try #require(result as? [String: Any])
            let stored = try #require(attributes[kSecAttrAccessControl as String] as? SecAccessControl)
            #expect(stored == control([.biometryAny, .or, .devicePasscode]))
            #expect(try keychain.authenticators.biometry.status().script.isEmpty)
            let delete: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "a"]
            #expect(SecItemDelete(delete as CFDictionary) == errSecSuccess)
        }
    }

    @Test func seedPatternEvaluateThenQueryWithTheContext() async throws {
        try await withAuthenticatingKeychain { keychain, clock in
            var error: Unmanaged<CFError>?
            guard
                let accessControl = SecAccessControlCreateWithFlags(
                    nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, .biometryCurrentSet, &error)
            else {
                Issue.record("no access control")
                return
            }
            let secretData = Data("token".utf8)
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: "com.app.auth",
                kSecAttrAccount as String: "biometric-secret",
                kSecAttrAccessControl as String: accessControl,
                kSecValueData as String: secretData,
            ]
            #expect(SecItemAdd(query as CFDictionary, nil) == errSecSuccess)

            let context = LAContext()
            context.localizedReason = "Access your credentials"
            context.touchIDAuthenticationAllowableReuseDuration = 10
            var authError: NSError?
            #expect(context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &authError))
            switch context.biometryType {
            case .faceID, .opticID, .none: Issue.record("the simulated sensor is Touch ID")
            case .touchID: break
            @unknown default: break
            }
            try keychain.authenticators.biometry.script(.match)
            #expect(
                try await context.evaluatePolicy(
                    .deviceOwnerAuthenticationWithBiometrics,
                    localizedReason: "Authenticate to access credentials"))
            // Within the reuse duration: no second prompt (nothing is scripted, so a prompt would cancel).
            #expect(read("biometric-secret", context: context) == (errSecSuccess, "token"))
            clock.advance(by: 9)
            #expect(read("biometric-secret", context: context, ui: kSecUseAuthenticationUIFail).0 == errSecSuccess)
            clock.advance(by: 2)
            #expect(
                read("biometric-secret", context: context, ui: kSecUseAuthenticationUIFail).0
                    == errSecInteractionNotAllowed)
            try keychain.authenticators.biometry.script(.match)
            #expect(read("biometric-secret", context: context).0 == errSecSuccess)  // prompts, renews the context
            #expect(read("biometric-secret", context: context, ui: kSecUseAuthenticationUIFail).0 == errSecSuccess)
            context.invalidate()
            #expect(
                read("biometric-secret", context: context, ui: kSecUseAuthenticationUIFail).0
                    == errSecInteractionNotAllowed)
        }
    }

    @Test func enrollmentChangeKillsCurrentSetButNotAny() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            let biometry = keychain.authenticators.biometry
            #expect(add("current", .biometryCurrentSet) == errSecSuccess)
            #expect(add("any", .biometryAny) == errSecSuccess)
            #expect(add("either", [.biometryCurrentSet, .or, .devicePasscode]) == errSecSuccess)
            try biometry.changeEnrollment()
            try biometry.script(.match, .match, .match)
            #expect(read("current").0 == errSecAuthFailed)
            #expect(read("any") == (errSecSuccess, "secret-any"))
            // The biometry alternative is gone; the passcode one still opens it.
            keychain.authenticators.passcodePrompt.enter("1234")
            #expect(read("either") == (errSecSuccess, "secret-either"))
        }
    }

    @Test func passcodeAndUserPresence() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            let prompt = keychain.authenticators.passcodePrompt
            #expect(add("pc", .devicePasscode) == errSecSuccess)
            prompt.enter("9999")
            #expect(read("pc").0 == errSecAuthFailed)
            prompt.cancel()
            #expect(read("pc").0 == errSecUserCanceled)
            prompt.enter("1234")
            #expect(read("pc") == (errSecSuccess, "secret-pc"))
            #expect(try keychain.authenticators.biometry.status().script.isEmpty)

            #expect(add("up", .userPresence) == errSecSuccess)
            try keychain.authenticators.biometry.script(.match)
            #expect(read("up") == (errSecSuccess, "secret-up"))
            try keychain.authenticators.biometry.script(.fallback)
            prompt.enter("1234")
            #expect(read("up") == (errSecSuccess, "secret-up"))
            // The deprecated kSecUseNoAuthenticationUI: true is kSecUseAuthenticationUIFail where kSecUseAuthenticationUI
            // is absent (Apple's client); kSecUseAuthenticationUI wins over it.
            #expect(add("quiet", .biometryAny) == errSecSuccess)
            try keychain.authenticators.biometry.script(.match)
            let noUI = [kSecUseNoAuthenticationUI as String: true]
            #expect(read("quiet", extra: noUI).0 == errSecInteractionNotAllowed)
            #expect(try keychain.authenticators.biometry.status().script.count == 1)  // no prompt was shown
            #expect(read("quiet", ui: kSecUseAuthenticationUIAllow, extra: noUI) == (errSecSuccess, "secret-quiet"))
            // Biometry alone: the fallback is no way in, and a failure, not the user's cancel (Apple's SecItem.m
            // maps every LocalAuthentication error but userCancel and notInteractive to errSecAuthFailed).
            #expect(add("bio", .biometryAny) == errSecSuccess)
            try keychain.authenticators.biometry.script(.fallback)
            #expect(read("bio").0 == errSecAuthFailed)
            try keychain.authenticators.biometry.script(.cancel)
            #expect(read("bio").0 == errSecUserCanceled)
            try keychain.authenticators.biometry.unenroll()
            prompt.enter("1234")
            #expect(read("up") == (errSecSuccess, "secret-up"))
        }
    }

    @Test func applicationPasswordIsPartOfTheKey() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            #expect(add("ap", .applicationPassword) == errSecAuthFailed)  // no password on the context
            let context = LAContext()
            context.setCredential(Data("app-pw".utf8), type: .applicationPassword)
            #expect(add("ap", .applicationPassword, context: context) == errSecSuccess)
            #expect(read("ap").0 == errSecAuthFailed)
            #expect(read("ap", context: context) == (errSecSuccess, "secret-ap"))
            let wrong = LAContext()
            wrong.setCredential(Data("other".utf8), type: .applicationPassword)
            #expect(read("ap", context: wrong).0 == errSecAuthFailed)
            // A password over 4,096 bytes is refused, and the context keeps none, not its earlier one.
            let replaced = LAContext()
            #expect(replaced.setCredential(Data("app-pw".utf8), type: .applicationPassword))
            #expect(!replaced.setCredential(Data(repeating: 1, count: 5000), type: .applicationPassword))
            #expect(!replaced.isCredentialSet(.applicationPassword))
            #expect(read("ap", context: replaced).0 == errSecAuthFailed)

            #expect(add("both", [.biometryCurrentSet, .and, .applicationPassword], context: context) == errSecSuccess)
            #expect(read("both", context: context, ui: kSecUseAuthenticationUIFail).0 == errSecInteractionNotAllowed)
            try keychain.authenticators.biometry.script(.match)
            #expect(read("both", context: context) == (errSecSuccess, "secret-both"))
            try keychain.authenticators.biometry.script(.match)
            #expect(read("both", context: wrong).0 == errSecAuthFailed)
        }
    }

    @Test func validationFollowsApple() async throws {
        try await withAuthenticatingKeychain { _, _ in
            var error: Unmanaged<CFError>?
            #expect(
                SecAccessControlCreateWithFlags(
                    nil, kSecAttrAccessibleWhenUnlocked, [.biometryAny, .or, .and, .devicePasscode], &error) == nil)
            // SecAccessControl.m's other two refusals: two biometry constraints, and .userPresence combined with
            // anything but .applicationPassword and .privateKeyUsage.
            for refused: SecAccessControlCreateFlags in [
                [.biometryAny, .biometryCurrentSet], [.userPresence, .or, .devicePasscode],
                [.userPresence, .biometryAny],
            ] {
                error = nil
                #expect(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, refused, &error) == nil)
                #expect((error?.takeRetainedValue() as Error?).map { ($0 as NSError).code } == Int(errSecParam))
            }
            for accepted: SecAccessControlCreateFlags in [
                [.userPresence, .applicationPassword], [.userPresence, .privateKeyUsage],
                [.biometryAny, .or, .devicePasscode],
            ] {
                #expect(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, accepted, nil) != nil)
            }
            #expect(add("s", .biometryAny, extra: [kSecAttrSynchronizable as String: true]) == errSecParam)
            #expect(
                add("c", .biometryAny, extra: [kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked])
                    == errSecParam)
            // Even of the access control's own class: Apple's keychain takes the two as conflicting access controls.
            let sameClass = [kSecAttrAccessible as String: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly]
            #expect(add("c", .biometryAny, extra: sameClass) == errSecParam)
            // Without flags they agree when their classes do.
            let plain: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "plain",
                kSecAttrAccessControl as String: control([], kSecAttrAccessibleWhenUnlocked),
                kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked,
            ]
            #expect(SecItemAdd(plain as CFDictionary, nil) == errSecSuccess)
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "d",
                kSecAttrAccessControl as String: control(.biometryAny, kSecAttrAccessibleAlways),
            ]
            #expect(SecItemAdd(query as CFDictionary, nil) == errSecParam)
            query[kSecAttrAccessControl as String] = control(.privateKeyUsage, kSecAttrAccessibleWhenUnlocked)
            #expect(SecItemAdd(query as CFDictionary, nil) == errSecParam)
            #expect(add("u", .biometryAny) == errSecSuccess)
            let match: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "u"]
            let change: [String: Any] = [kSecAttrLabel as String: "x"]
            #expect(SecItemUpdate(match as CFDictionary, change as CFDictionary) == errSecSuccess)
            var skip = match
            skip[kSecUseAuthenticationUI as String] = kSecUseAuthenticationUISkip
            #expect(SecItemDelete(skip as CFDictionary) == errSecParam)
        }
    }

    @Test func constraintsNeedAPasscode() async throws {
        try await withAuthenticatingKeychain(passcode: nil) { _, _ in
            #expect(add("b", .biometryAny, extra: [:]) == errSecAuthFailed)
        }
    }
}
