import Foundation
import KeychainCore
import KeychainRequests
import Synchronization
import Testing

/// What keychaind's prompts say: the reason of the context a client set (`LAContext.localizedReason`), carried
/// with the context to the daemon's engine.
@Suite struct DaemonPromptReasonTests {
    /// Types "1234" at each passcode prompt and keeps the prompt's text.
    final class RecordingRelay: UserPrompter {
        let reasons = Mutex<[String]>([])

        func ask(_ prompt: UserPrompt) throws -> PromptAnswer {
            guard case .devicePasscode(let reason) = prompt else { throw AuthenticationFailure.notInteractive }
            reasons.withLock { $0.append(reason) }
            return .passcode(SecureBytesBox(Array("1234".utf8)))
        }
    }

    @Test func aContextsLocalizedReasonReachesTheDaemonsPrompt() throws {
        let daemon = try DaemonProcess()
        let relay = RecordingRelay()
        let service = DaemonKeychainService(socketPath: daemon.socketPath, prompter: relay)
        try daemon.ownerClient().setPasscode(Secret(Array("1234".utf8)))
        _ = try service.perform(.add(DaemonPromptTests.constrainedItem()), as: service.caller())
        let id = try service.newContext()
        _ = try service.perform(.setLocalizedReason("Sign in to your mail"), as: service.caller(context: id))
        let query = ItemQuery.genericPassword(service: "svc", account: "vault", returns: [.data])
        guard case .found(let report) = try service.perform(.search(query), as: service.caller(context: id)) else {
            Issue.record("not found")
            return
        }
        #expect(report.results.first?.data?.bytes == Array("gold".utf8))
        let shown = relay.reasons.withLock { $0.last } ?? ""
        #expect(shown.contains("Sign in to your mail"))
        // Who asks is the daemon's finding (the test runner's private group), never a name the client sends.
        #expect(shown.hasPrefix("LOCAL.") && shown.contains(" asks: Sign in to your mail"), "\(shown)")
    }
}
