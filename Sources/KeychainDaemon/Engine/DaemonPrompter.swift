import KeychainCore
import KeychainRequests
import KeychainWire
import Synchronization

/// Who asks the user for keychaind, so that what it accepts is what it checked itself. A device-passcode prompt
/// is forwarded as a question to the client whose request is running (a `prompt` frame); the client relays what
/// the user typed and the keychain verifies it against its keybag. A client cannot answer "authenticated".
/// Biometry and the companion are asked here, of the daemon's own devices.
final class DaemonPrompter: UserPrompter {
    /// The connection and request a prompt belongs to, set around each request the daemon runs.
    struct Route: Sendable {
        let connection: DaemonConnection
        let requestID: UInt64
    }

    @TaskLocal static var route: Route?

    private let local = Mutex<(any UserPrompter)?>(nil)

    /// The prompter for the checks the daemon runs itself (set once the keychain's devices exist).
    func useLocally(_ prompter: any UserPrompter) { local.withLock { $0 = prompter } }

    func ask(_ prompt: UserPrompt) throws -> PromptAnswer {
        guard case .devicePasscode = prompt else {
            guard let local = local.withLock({ $0 }) else { throw AuthenticationFailure.notInteractive }
            return try local.ask(prompt)
        }
        // No client to ask (the daemon's own work): nobody can type a passcode.
        guard let route = Self.route else { throw AuthenticationFailure.notInteractive }
        let question = Frame(kind: .prompt, requestID: route.requestID, payload: PromptCodec.encode(prompt))
        guard let answer = route.connection.exchange(question), answer.kind == .promptAnswer,
            answer.requestID == route.requestID
        else {
            // The client left, or sent something else than an answer: as if the system canceled the prompt.
            throw AuthenticationFailure.systemCancel
        }
        switch try PromptCodec.decodeAnswer(answer.payload) {
        case .passcode(let typed): return .passcode(typed)
        case .failed(let failure): throw failure
        }
    }
}
