import Foundation
import KeychainCore
import KeychainRequests
import LocalAuthentication
import Security
import Synchronization
import Testing

private let promptQueueKey = DispatchSpecificKey<String>()

/// A prompter that notes the dispatch queue each prompt runs on and answers with `passcode`.
private final class QueueNotingPrompter: UserPrompter {
    let passcode: String
    let queues = Mutex<[String]>([])

    init(passcode: String) { self.passcode = passcode }

    func ask(_ prompt: UserPrompt) throws -> PromptAnswer {
        let label = DispatchQueue.getSpecific(key: promptQueueKey) ?? "another thread"
        queues.withLock { $0.append(label) }
        return .passcode(SecureBytesBox(Array(passcode.utf8)))
    }
}

/// A prompter that, while the user is asked, has the app invalidate the context, then answers the passcode.
private final class InvalidatingPrompter: UserPrompter {
    let context = Mutex<LAContext?>(nil)

    func ask(_ prompt: UserPrompt) throws -> PromptAnswer {
        context.withLock { $0?.invalidate() }
        return .passcode(SecureBytesBox(Array("1234".utf8)))
    }
}

@Suite struct LAContextBoundaryTests {
    private func keychain(_ prompter: any UserPrompter) throws -> (Keychain, URL) {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("la-boundary-\(UUID().uuidString)")
        var configuration = KeychainConfiguration(
            home: home, identity: CallerIdentity(applicationIdentifier: "T.app", accessGroups: ["T.app"]))
        configuration.passcodeDerivationTarget = 0.002
        configuration.userPrompter = prompter
        let keychain = try Keychain(configuration: configuration)
        try keychain.setPasscode(Secret(Array("1234".utf8)))
        return (keychain, home)
    }

    @Test func asyncEvaluationPromptsOnItsOwnQueueNotTheCooperativePool() async throws {
        let prompter = QueueNotingPrompter(passcode: "1234")
        let (keychain, home) = try keychain(prompter)
        defer {
            keychain.close()
            try? FileManager.default.removeItem(at: home)
        }
        LAContext.promptQueue.setSpecific(key: promptQueueKey, value: "LAContext.evaluatePolicy")
        let succeeded = try await SecurityRuntime.withKeychain(keychain) { () async throws -> Bool in
            try await LAContext().evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "why")
        }
        #expect(succeeded)
        #expect(prompter.queues.withLock { $0 } == ["LAContext.evaluatePolicy"])
    }

    @Test func anLAContextIsAnIdInTheKeychainsRegistryForgottenWithIt() throws {
        let (keychain, home) = try keychain(QueueNotingPrompter(passcode: "1234"))
        defer {
            keychain.close()
            try? FileManager.default.removeItem(at: home)
        }
        try SecurityRuntime.withKeychain(keychain) {
            var context: LAContext? = LAContext()
            #expect(keychain.authenticationContexts.count == 1)
            context?.touchIDAuthenticationAllowableReuseDuration = 42
            #expect(context?.touchIDAuthenticationAllowableReuseDuration == 42)
            context = nil
            #expect(keychain.authenticationContexts.count == 0)
        }
    }

    /// Apple: invalidating a context cancels its pending evaluation with `.appCancel`; what the user answered
    /// meanwhile counts for nothing, and the context holds no authentication.
    @Test func invalidatingAContextWhileTheUserIsAskedCancelsItsEvaluation() async throws {
        let prompter = InvalidatingPrompter()
        let (keychain, home) = try keychain(prompter)
        defer {
            keychain.close()
            try? FileManager.default.removeItem(at: home)
        }
        try await SecurityRuntime.withKeychain(keychain) { () async throws in
            let context = LAContext()
            prompter.context.withLock { $0 = context }
            do {
                _ = try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "why")
                Issue.record("the evaluation succeeded on an invalidated context")
            } catch let error as LAError {
                #expect(error.code == .appCancel)
            }
            var error: NSError?
            #expect(!context.canEvaluatePolicy(.deviceOwnerAuthentication, error: &error))
            #expect(error?.code == LAError.Code.invalidContext.rawValue)
        }
    }
}
