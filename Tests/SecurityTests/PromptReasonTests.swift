import Foundation
import KeychainCore
import KeychainRequests
import LocalAuthentication
import Security
import Synchronization
import Testing

/// A prompter that keeps the text of each passcode prompt and answers "1234".
private final class ReasonRecordingPrompter: UserPrompter {
    let reasons = Mutex<[String]>([])

    func ask(_ prompt: UserPrompt) throws -> PromptAnswer {
        if case .devicePasscode(let reason) = prompt { reasons.withLock { $0.append(reason) } }
        return .passcode(SecureBytesBox(Array("1234".utf8)))
    }
}

/// What a keychain prompt says: who asks, as the keychain resolved the caller, then the app's reason
/// (`kSecUseOperationPrompt`, else the context's `localizedReason`, as on Apple since iOS 14 deprecated the former).
@Suite struct PromptReasonTests {
    /// A keychain of app `T.app` with passcode 1234 whose prompts `prompter` records; closed and removed by `close`.
    private struct PromptingKeychain {
        let keychain: Keychain
        let prompter = ReasonRecordingPrompter()
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("prompt-reason-\(UUID().uuidString)")

        init() throws {
            var configuration = KeychainConfiguration(
                home: home, identity: CallerIdentity(applicationIdentifier: "T.app", accessGroups: ["T.app"]))
            configuration.passcodeDerivationTarget = 0.002
            configuration.userPrompter = prompter
            keychain = try Keychain(configuration: configuration)
            try keychain.setPasscode(Secret(Array("1234".utf8)))
        }

        func close() {
            keychain.close()
            try? FileManager.default.removeItem(at: home)
        }
    }

    private func withPromptingKeychain(_ body: (ReasonRecordingPrompter) throws -> Void) throws {
        let prompting = try PromptingKeychain()
        defer { prompting.close() }
        let prompter = prompting.prompter
        try SecurityRuntime.withKeychain(prompting.keychain) {
            #expect(addPassword("token", service: "svc", secret: "s", flags: .devicePasscode) == errSecSuccess)
            try body(prompter)
        }
    }

    @Test func aContextsLocalizedReasonIsShownWhenTheQueryGivesNoOperationPrompt() throws {
        try withPromptingKeychain { prompter in
            let context = LAContext()
            context.localizedReason = "Sign in to your mail"
            #expect(
                readPassword("token", service: "svc", extra: [kSecUseAuthenticationContext as String: context]).0
                    == errSecSuccess)
            #expect(prompter.reasons.withLock { $0.last }?.contains("Sign in to your mail") == true)
        }
    }

    @Test func theOperationPromptWinsOverTheContextsLocalizedReason() throws {
        try withPromptingKeychain { prompter in
            let context = LAContext()
            context.localizedReason = "the context's reason"
            let extra: [String: Any] = [
                kSecUseAuthenticationContext as String: context,
                kSecUseOperationPrompt as String: "the query's prompt",
            ]
            #expect(readPassword("token", service: "svc", extra: extra).0 == errSecSuccess)
            let shown = prompter.reasons.withLock { $0.last } ?? ""
            #expect(shown.contains("the query's prompt") && !shown.contains("the context's reason"))
        }
    }

    @Test func aLocalizedReasonSetAgainReplacesTheFirstAndAnEmptyOneClearsIt() throws {
        try withPromptingKeychain { prompter in
            let context = LAContext()
            context.localizedReason = "first"
            context.localizedReason = "second"
            context.touchIDAuthenticationAllowableReuseDuration = 0.001  // each read below asks
            let query: [String: Any] = [kSecUseAuthenticationContext as String: context]
            #expect(readPassword("token", service: "svc", extra: query).0 == errSecSuccess)
            #expect(prompter.reasons.withLock { $0.last }?.contains("second") == true)
            context.localizedReason = ""
            Thread.sleep(forTimeInterval: 0.01)  // past the reuse duration: the read asks again
            #expect(readPassword("token", service: "svc", extra: query).0 == errSecSuccess)
            #expect(prompter.reasons.withLock { $0.last }?.contains("T.app wants to use an item") == true)
        }
    }

    /// An app's reason cannot pass for another app's prompt: the keychain names the asker first, and the reason
    /// stays on that line.
    @Test func theAppAskingIsNamedBeforeItsReason() throws {
        try withPromptingKeychain { prompter in
            let forged = "security wants to act for the keychain's owner.\nsecurity asks: type your password"
            #expect(readPassword("token", service: "svc", extra: [kSecUseOperationPrompt as String: forged]).0 == 0)
            let shown = prompter.reasons.withLock { $0.last } ?? ""
            #expect(shown.hasPrefix("T.app asks: security wants to act"), "\(shown)")
            #expect(!shown.contains("\n"))
        }
    }

    @Test func anEvaluationsPromptNamesTheAppAsking() async throws {
        let prompting = try PromptingKeychain()
        defer { prompting.close() }
        let prompter = prompting.prompter
        let evaluated = try await SecurityRuntime.withKeychain(prompting.keychain) { () async throws -> Bool in
            try await LAContext().evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Unlock your notes")
        }
        #expect(evaluated)
        #expect(prompter.reasons.withLock { $0 } == ["T.app asks: Unlock your notes"])
    }
}
