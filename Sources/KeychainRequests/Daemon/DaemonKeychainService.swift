import KeychainCore
import KeychainCrypto
import KeychainWire
import Synchronization

/// The service of a process whose keychain is keychaind's (docs/keychaind.md): each request is sent over the
/// daemon's socket and answered there, as the identity the daemon gives this process. There is no fallback: a
/// daemon that is not there is `errSecNotAvailable` (-25291) with the reason, and the next request connects
/// again, so a daemon that comes back is used without restarting the client.
///
/// While a request runs the daemon may ask a question (a device passcode): ``prompter`` asks the user and the
/// reply relays what was typed; the daemon checks it.
package final class DaemonKeychainService: KeychainService {
    package let socketPath: String
    private let prompter: any UserPrompter
    /// Who shows this process's user the messages of the system authentication the daemon runs (PAM's).
    let systemPrompter: any SystemPromptRelay
    /// The connection, held for the process's life and replaced when it breaks; one request at a time on it.
    let connection = Mutex<DaemonClient?>(nil)
    let identity = Mutex<CallerIdentity?>(nil)
    /// The message of the owner rights this process was granted (``claimOwnerRights(message:)``), claimed again on
    /// a new connection; nil while it has none.
    let ownerClaim = Mutex<String?>(nil)

    /// - Parameter prompter: who asks this process's user the daemon's questions (default: the controlling
    ///   terminal).
    /// - Parameter systemPrompter: who relays PAM's messages (default: the controlling terminal).
    package init(
        socketPath: String, prompter: (any UserPrompter)? = nil, systemPrompter: (any SystemPromptRelay)? = nil
    ) {
        self.socketPath = socketPath
        self.prompter = prompter ?? TerminalPasscodeRelay()
        self.systemPrompter = systemPrompter ?? TerminalSystemPromptRelay()
    }

    /// The identity the daemon gives this process (its `identify` answer); an empty one while the daemon cannot
    /// be reached. Informational only: requests carry no identity, the daemon uses its own conclusion.
    package var callerIdentity: CallerIdentity {
        (try? identify()) ?? CallerIdentity(applicationIdentifier: nil, accessGroups: [])
    }

    /// The identity the daemon gives this process, asked once and then kept.
    /// - Throws: `errSecNotAvailable` when the daemon cannot be reached, or its refusal of this process.
    package func identify() throws -> CallerIdentity {
        if let known = identity.withLock({ $0 }) { return known }
        let asked = try connection.withLock { held -> CallerIdentity in
            let client = try connected(&held)
            let frame = try roundTrip(client, held: &held) { client throws(DaemonClient.Failure) in
                try client.request(.identify)
            }
            guard let fields = try? FieldList.decode(frame.payload) else {
                held = nil
                throw unavailable("its identify answer is not a field list")
            }
            return CallerIdentity(
                applicationIdentifier: fields["application-identifier"].flatMap { $0.isEmpty ? nil : $0 },
                accessGroups: (fields["access-groups"] ?? "").split(separator: " ").map(String.init))
        }
        identity.withLock { $0 = asked }
        return asked
    }

    package func perform(_ request: KeychainRequest, as caller: Caller) throws -> KeychainResponse {
        if let done = try performBackupLocally(request, as: caller) { return done }
        var payload = try RequestCodec.encode(request, context: caller.authenticationContext)
        defer { wipe(&payload) }
        return try connection.withLock { held in
            let client = try connected(&held)
            try Self.checkProtocol(of: client, serves: request)
            try Self.checkSize(of: payload, for: client)
            let frame = Frame(kind: .request, requestID: client.takeRequestID(), payload: payload)
            var sent = client.send(frame)
            var current = client
            if !sent {
                // The daemon went away since the last request (a restart, the idle limit): one fresh try. The
                // request never reached it, so it cannot run twice.
                held = nil
                current = try connected(&held)
                try Self.checkProtocol(of: current, serves: request)
                try Self.checkSize(of: payload, for: current)
                sent = current.send(frame)
            }
            guard sent else {
                held = nil
                throw unavailable("the connection broke before the request was sent")
            }
            return try answer(to: frame.requestID, on: current, held: &held)
        }
    }

    /// Refuses, before it is sent, a request newer than the daemon's protocol (a daemon still running from before
    /// an upgrade): errSecUnimplemented, with the restart that mends it.
    private static func checkProtocol(of client: DaemonClient, serves request: KeychainRequest) throws {
        let spoken = client.daemonHello?.protocolVersion ?? 1
        guard spoken < request.minimumProtocol else { return }
        throw KeychainError.unimplemented.because(
            "keychaind speaks protocol \(spoken), and this request needs protocol \(request.minimumProtocol): "
                + "restart keychaind with this release")
    }

    /// Refuses, before it is sent, a request larger than the daemon said it accepts: the daemon would close the
    /// connection on its header.
    private static func checkSize(of payload: [UInt8], for client: DaemonClient) throws {
        guard let limit = client.requestLimit, payload.count > limit else { return }
        throw KeychainError.requestTooLarge(size: payload.count, limit: limit)
    }

    /// Reads until the request's answer, answering the daemon's questions on the way and putting an answer sent
    /// in parts back together.
    private func answer(to requestID: UInt64, on client: DaemonClient, held: inout DaemonClient?) throws
        -> KeychainResponse
    {
        let assembler = AnswerAssembler(limit: client.answerLimit)
        while true {
            var frame = try roundTrip(client, held: &held) { client throws(DaemonClient.Failure) in
                try client.receive()
            }
            // An answer's frames may hold secrets: each is wiped once used (the frame's own bytes, not a copy).
            defer { frame.wipePayload() }
            guard frame.requestID == requestID || frame.kind == .error else {
                held = nil
                throw unavailable("keychaind answered another request (#\(frame.requestID))")
            }
            switch frame.kind {
            case .responsePart:
                try assemble(held: &held) { () throws(AnswerAssembler.Failure) in
                    try assembler.add(partPayload: frame.payload)
                }
            case .response:
                var whole = try assemble(held: &held) { () throws(AnswerAssembler.Failure) in
                    try assembler.finish(responsePayload: frame.payload)
                }
                defer { wipe(&whole) }
                return try ResponseCodec.decode(whole)
            case .prompt where !assembler.isStarted:
                var reply = try PromptCodec.encode(relay(frame.payload))
                defer { wipe(&reply) }
                guard client.send(Frame(kind: .promptAnswer, requestID: requestID, payload: reply)) else {
                    held = nil
                    throw unavailable("the connection broke while answering a prompt")
                }
            case .error:
                // A refusal (the policy, a limit): the daemon closes the connection after it.
                held = nil
                throw Self.refused(try? ErrorReply.decode(frame.payload))
            default:
                held = nil
                throw unavailable("keychaind answered with a \(frame.kind) frame")
            }
        }
    }

    /// Runs a step of putting an answer together; a failure drops the connection, whose remaining parts are
    /// unread.
    private func assemble<Value>(
        held: inout DaemonClient?, _ step: () throws(AnswerAssembler.Failure) -> Value
    ) throws -> Value {
        do {
            return try step()
        } catch {
            held = nil
            switch error {
            case .tooLarge(let size, let limit):
                throw KeychainError.answerOverClientLimit(size: size, limit: limit)
            case .inconsistent(let what):
                throw unavailable("its answer in parts is broken: \(what)")
            }
        }
    }

    /// The error of the daemon's `error` frame.
    private static func refused(_ reply: ErrorReply?) -> KeychainError {
        KeychainError(
            reply?.status ?? SecurityStatus.notAvailable,
            reason: reply.map { KeychainError.Reason(verbatim: "keychaind: " + $0.reason) })
    }

    /// What this process's user answers to the daemon's question.
    func relay(_ payload: [UInt8]) -> PromptCodec.Reply {
        let prompt: UserPrompt
        switch try? PromptCodec.decodeQuestion(payload) {
        case .user(let asked)?: prompt = asked
        case .system(let message)?: return systemPrompter.relay(message)
        case nil: return .failed(.systemCancel)
        }
        do {
            switch try prompter.ask(prompt) {
            case .passcode(let typed, _): return .passcode(typed)
            // Only the daemon's own checks count: a local "confirmed" cannot be relayed.
            case .confirmed: return .failed(.notInteractive)
            }
        } catch let failure as AuthenticationFailure {
            return .failed(failure)
        } catch {
            return .failed(.systemCancel)
        }
    }

    func connected(_ held: inout DaemonClient?) throws -> DaemonClient {
        if let client = held {
            if client.belongsToThisProcess { return client }
            // A child of a fork holds its parent's connection: keychaind would end it for both.
            held = nil
        }
        let client: DaemonClient
        let refusal: ErrorReply?
        do {
            client = try DaemonClient(socketPath: socketPath)
        } catch {
            throw unavailable(error.description)
        }
        // Before anything is sent: a request may carry a secret.
        guard let uid = client.daemonUID else { throw unavailable("the kernel does not say who serves it") }
        if let doubt = DaemonTrust.doubt(daemonUID: uid, socketPath: socketPath) {
            throw KeychainError.notAvailable.because("keychaind at \(socketPath) is not trusted: \(doubt)")
        }
        do {
            refusal = try client.negotiate()
        } catch {
            throw unavailable(error.description)
        }
        // A refusal (the policy, a limit): the daemon closes the connection after it.
        if let refusal { throw Self.refused(refusal) }
        held = client
        try reclaimOwnerRights(on: client, held: &held)
        guard let held else { throw unavailable("the connection broke while claiming owner rights again") }
        return held
    }

    func roundTrip(
        _ client: DaemonClient, held: inout DaemonClient?, _ body: (DaemonClient) throws(DaemonClient.Failure) -> Frame
    ) throws -> Frame {
        do {
            return try body(client)
        } catch {
            held = nil
            throw unavailable(error.description)
        }
    }

    func unavailable(_ reason: String) -> KeychainError {
        KeychainError.notAvailable.because("keychaind at \(socketPath) is not available: \(reason)")
    }

}
