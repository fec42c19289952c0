import KeychainCore
import KeychainRequests
import KeychainWire
import Synchronization
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// Who asks the user for keychaind, so that what it accepts is what it checked itself. A device-passcode prompt
/// is forwarded as a question to the client whose request is running (a `prompt` frame); the client relays what
/// the user typed and the keychain verifies it against its keybag. With the daemon's own system authentication
/// (`--passcode-prompts pam`), the daemon runs PAM for the client's user instead and forwards only PAM's
/// messages (``relay(_:on:)``); with `--fingerprint-reader`, biometry is fprintd asked by the daemon for the
/// keychain's user, its progress lines relayed. A client cannot answer "authenticated". Otherwise biometry and
/// the companion are asked here, of the daemon's own devices (the simulated sensor and companion).
final class DaemonPrompter: UserPrompter {
    /// The connection and request a prompt belongs to, set around each request the daemon runs.
    struct Route: Sendable {
        let connection: DaemonConnection
        let requestID: UInt64
        /// The client's uid (whose account PAM authenticates).
        var uid: UInt32?

        init(connection: DaemonConnection, requestID: UInt64, uid: UInt32? = nil) {
            self.connection = connection
            self.requestID = requestID
            self.uid = uid
        }
    }

    @TaskLocal static var route: Route?

    private let local = Mutex<(any UserPrompter)?>(nil)
    /// The system authentication device-passcode prompts go to instead of the keychain passcode, if any.
    private let system: SystemOwnerAuthentication?
    /// The fingerprint reader biometry prompts go to, for the keychain's user, if any.
    private let fingerprintReader: SystemFingerprintReader?

    init(system: SystemOwnerAuthentication? = nil, fingerprintReader: SystemFingerprintReader? = nil) {
        self.system = system
        self.fingerprintReader = fingerprintReader
    }

    /// The prompter for the checks the daemon runs itself (set once the keychain's devices exist).
    func useLocally(_ prompter: any UserPrompter) { local.withLock { $0 = prompter } }

    func ask(_ prompt: UserPrompt) throws -> PromptAnswer {
        if case .biometry(let reason) = prompt, let fingerprintReader {
            // fprintd, asked by the daemon for the keychain's user; the client sees only its progress lines.
            guard let route = Self.route else { throw AuthenticationFailure.notInteractive }
            try fingerprintReader.verify(reason: reason) { Self.relay($0, on: route) }.requireSuccess()
            return .confirmed
        }
        guard case .devicePasscode(let reason) = prompt else {
            guard let local = local.withLock({ $0 }) else { throw AuthenticationFailure.notInteractive }
            return try local.ask(prompt)
        }
        // No client to ask (the daemon's own work): nobody can type a passcode.
        guard let route = Self.route else { throw AuthenticationFailure.notInteractive }
        if let system {
            guard let uid = route.uid, let user = Self.userName(uid) else { throw AuthenticationFailure.notInteractive }
            try system.authenticate(user: user, reason: reason) { Self.relay($0, on: route) }.requireSuccess()
            return .confirmed
        }
        let question = Frame(kind: .prompt, requestID: route.requestID, payload: PromptCodec.encode(prompt))
        // The answer's payload holds the typed passcode: wiped once it is decoded (or found to be no answer). One
        // binding only, so that the wipe reaches the bytes themselves rather than a copy.
        guard var answer = route.connection.exchange(question) else { throw AuthenticationFailure.systemCancel }
        defer { answer.wipePayload() }
        guard answer.kind == .promptAnswer, answer.requestID == route.requestID else {
            // The client left, or sent something else than an answer: as if the system canceled the prompt.
            throw AuthenticationFailure.systemCancel
        }
        switch try PromptCodec.decodeAnswer(answer.payload) {
        // Typed on an owner's connection, it counts with the owner's attempts, which apps cannot hold back.
        case .passcode(let typed): return .passcode(typed, typedBy: route.connection.actsAsOwner ? .owner : .anyone)
        case .failed(let failure): throw failure
        case .shown: throw AuthenticationFailure.notInteractive
        }
    }

    /// Forwards one message of the system's authentication to the client of `route` and returns its reply: what
    /// the user typed, or that the line was shown. Anything else (the client left, sent another frame, or an
    /// answer of the wrong sort) ends the conversation as a cancel.
    static func relay(_ message: SystemPrompt, on route: Route) -> SystemPromptReply {
        let question = Frame(kind: .prompt, requestID: route.requestID, payload: PromptCodec.encode(message))
        // The answer's payload holds what was typed (a password): wiped once it is decoded.
        guard var answer = route.connection.exchange(question) else { return .failed(.systemCancel) }
        defer { answer.wipePayload() }
        guard answer.kind == .promptAnswer, answer.requestID == route.requestID,
            let reply = try? PromptCodec.decodeAnswer(answer.payload)
        else { return .failed(.systemCancel) }
        switch reply {
        case .passcode(let typed) where message.style.isQuestion: return .typed(typed)
        case .shown where !message.style.isQuestion: return .shown
        case .failed(let failure): return .failed(failure)
        default: return .failed(.systemCancel)
        }
    }

    /// The account name of `uid`, which PAM authenticates.
    static func userName(_ uid: UInt32) -> String? { SystemCalls.userEntry(uid: uid)?.name }
}
