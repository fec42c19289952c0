import Foundation
import KeychainCore
import LocalAuthentication
import Security
import Testing

/// The simulated companion (a paired watch): the LAPolicy watch policies and `.watch` items.
@Suite struct CompanionTests {
    private func code(_ context: LAContext, _ policy: LAPolicy) -> Int? {
        var error: NSError?
        return context.canEvaluatePolicy(policy, error: &error) ? nil : error?.code
    }

    private func evaluation(_ context: LAContext, _ policy: LAPolicy) async -> LAError.Code? {
        await evaluationCode(context, policy)
    }

    private func control(_ flags: SecAccessControlCreateFlags) -> SecAccessControl {
        var error: Unmanaged<CFError>?
        return SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, &error)!
    }

    private func add(_ account: String, _ flags: SecAccessControlCreateFlags) -> OSStatus {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "com.app.watch",
            kSecAttrAccount as String: account, kSecAttrAccessControl as String: control(flags),
            kSecValueData as String: Data("secret-\(account)".utf8),
        ]
        return SecItemAdd(query as CFDictionary, nil)
    }

    private func read(_ account: String, context: LAContext? = nil, ui: CFString? = nil) -> (OSStatus, String?) {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "com.app.watch",
            kSecAttrAccount as String: account, kSecReturnData as String: true,
        ]
        if let context { query[kSecUseAuthenticationContext as String] = context }
        if let ui { query[kSecUseAuthenticationUI as String] = ui }
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return (status, (result as? Data).map { String(decoding: $0, as: UTF8.self) })
    }

    @Test func watchPoliciesFollowPairing() async throws {
        try await withAuthenticatingKeychain(enrolled: false) { keychain, _ in
            let companion = keychain.authenticators.companion
            let context = LAContext()
            let watch = LAPolicy.deviceOwnerAuthenticationWithWatch
            let either = LAPolicy.deviceOwnerAuthenticationWithBiometricsOrWatch
            #expect(code(context, watch) == LAError.Code.watchNotAvailable.rawValue)
            #expect(code(context, either) == LAError.Code.biometryNotEnrolled.rawValue)
            try companion.pair()
            #expect(code(context, watch) == nil)
            #expect(code(context, either) == nil)
            try companion.script(.approve, .deny, .cancel)
            #expect(await evaluation(context, watch) == nil)
            #expect(await evaluation(context, watch) == .authenticationFailed)
            #expect(await evaluation(context, watch) == .userCancel)
            #expect(await evaluation(context, watch) == .userCancel)  // nothing queued: the request is dismissed
            context.interactionNotAllowed = true
            try companion.script(.approve)
            #expect(await evaluation(context, watch) == .notInteractive)
            #expect(try companion.status().script == [.approve])
            try companion.unpair()
            let status = try companion.status()
            #expect(!status.isPaired && status.script.isEmpty)
            #expect(code(context, watch) == LAError.Code.watchNotAvailable.rawValue)
        }
    }

    @Test func watchPoliciesNeedAPasscode() async throws {
        try await withAuthenticatingKeychain(passcode: nil, enrolled: false) { keychain, _ in
            try keychain.authenticators.companion.pair()
            #expect(code(LAContext(), .deviceOwnerAuthenticationWithWatch) == LAError.passcodeNotSet.rawValue)
        }
    }

    @Test func biometricsOrWatchTakesWhicheverAnswers() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            let companion = keychain.authenticators.companion
            let biometry = keychain.authenticators.biometry
            try companion.pair()
            let either = LAPolicy.deviceOwnerAuthenticationWithBiometricsOrWatch
            try biometry.script(.match)
            try companion.script(.deny)
            #expect(await evaluation(LAContext(), either) == nil)  // the sensor answered first
            #expect(try companion.status().script == [.deny])
            #expect(await evaluation(LAContext(), either) == .authenticationFailed)  // the watch declined
            try companion.script(.approve)
            #expect(await evaluation(LAContext(), either) == nil)
            try biometry.script(.noMatch)
            #expect(await evaluation(LAContext(), either) == .authenticationFailed)
        }
    }

    @Test func seedCombinationBiometryOrWatch() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            let companion = keychain.authenticators.companion
            let biometry = keychain.authenticators.biometry
            #expect(add("bw", [.biometryAny, .or, .watch]) == errSecSuccess)  // no companion needed to add
            try biometry.script(.match)
            #expect(read("bw") == (errSecSuccess, "secret-bw"))
            try biometry.unenroll()
            #expect(read("bw").0 == errSecAuthFailed)  // neither biometry nor a watch
            try companion.pair()
            try companion.script(.approve)
            #expect(read("bw") == (errSecSuccess, "secret-bw"))
            try companion.script(.deny)
            #expect(read("bw").0 == errSecAuthFailed)
            try companion.script(.cancel)
            #expect(read("bw").0 == errSecUserCanceled)
            #expect(read("bw", ui: kSecUseAuthenticationUIFail).0 == errSecInteractionNotAllowed)
            #expect(read("bw", ui: kSecUseAuthenticationUISkip).0 == errSecItemNotFound)
            let context = LAContext()
            context.touchIDAuthenticationAllowableReuseDuration = 10
            try companion.script(.approve)
            #expect(await evaluation(context, .deviceOwnerAuthenticationWithWatch) == nil)
            #expect(read("bw", context: context, ui: kSecUseAuthenticationUIFail) == (errSecSuccess, "secret-bw"))
        }
    }

    @Test func watchAloneAndWatchWithBiometry() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            let companion = keychain.authenticators.companion
            let biometry = keychain.authenticators.biometry
            #expect(add("w", .watch) == errSecSuccess)
            #expect(read("w").0 == errSecAuthFailed)  // not paired
            try companion.pair()
            try companion.script(.approve)
            #expect(read("w") == (errSecSuccess, "secret-w"))
            try companion.unpair()
            try companion.pair()  // paired again: the same items open
            try companion.script(.approve)
            #expect(read("w") == (errSecSuccess, "secret-w"))

            #expect(add("both", [.biometryAny, .and, .watch]) == errSecSuccess)
            try biometry.script(.match)
            #expect(read("both").0 == errSecUserCanceled)  // the watch was not answered
            try biometry.script(.match)
            try companion.script(.approve)
            #expect(read("both") == (errSecSuccess, "secret-both"))
        }
    }
}
