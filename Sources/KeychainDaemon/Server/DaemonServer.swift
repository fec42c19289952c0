import DaemonSystem
import Foundation
import KeychainCore
import KeychainWire
import Synchronization
import SystemCalls

/// The daemon's accept loop and connections. One thread per connection, doing blocking reads with the idle
/// limit as the socket's timeout: clients hold a connection for their life and send one request at a time, the
/// count of threads is bounded by ``ConnectionLimits/connections``, and a slow client (or one whose executable
/// is being hashed) holds up no one else. The engine's own lock and the group committer order the writes.
package final class DaemonServer: Sendable {
    package static let version = "0.1.0"

    private let listener: UnixListener
    private let limits: ConnectionLimits
    let resolver: Mutex<CallerResolver>
    let inspector: PeerInspector
    private let handler: any DaemonHandler
    private let log: DaemonLog
    private let counter: ConnectionCounter
    private let answers: AnswerBudget
    private let inFlight = Atomic<Int>(0)
    private let queueDepth: @Sendable () -> Int
    private let started = Date()

    /// - Parameter queueDepth: requests waiting elsewhere (the group committer's queue), added to those being
    ///   handled in `status`.
    package init(
        listener: UnixListener, limits: ConnectionLimits, resolver: CallerResolver, handler: any DaemonHandler,
        log: DaemonLog, inspector: PeerInspector = PeerInspector(), queueDepth: @escaping @Sendable () -> Int = { 0 }
    ) {
        self.listener = listener
        self.limits = limits
        self.resolver = Mutex(resolver)
        self.inspector = inspector
        self.handler = handler
        self.log = log
        self.counter = ConnectionCounter(limits: limits)
        self.answers = AnswerBudget(largestAnswer: limits.maximumAnswer)
        self.queueDepth = queueDepth
    }

    /// Accepts connections until ``stop()``; each is served on a thread of its own.
    package func run() {
        while let descriptor = listener.accept() {
            let acceptedAt = ProcFile.secondsSinceBoot()
            let thread = Thread { [self] in serve(descriptor, acceptedAt: acceptedAt) }
            thread.start()
        }
    }

    /// Stops accepting; connections already open finish their current request and close when their client does.
    package func stop() { listener.shutDown() }

    /// Stops accepting, then has the handler lock and wipe what it holds (class keys): the daemon exits next.
    package func shutDown() {
        listener.shutDown()
        handler.shutDown()
    }

    /// Replaces the policy (SIGHUP): connections opened afterwards are judged by the new one.
    package func replaceResolver(_ replacement: CallerResolver) {
        resolver.withLock { $0 = replacement }
    }

    /// The figures `status` answers with.
    package var status: DaemonStatus {
        DaemonStatus(
            version: Self.version, protocolVersion: Frame.protocolVersion, uptimeSeconds: -started.timeIntervalSinceNow,
            clients: counter.total, queueDepth: inFlight.load(ordering: .relaxed) + queueDepth())
    }

    /// How much reading of executables the daemon has done and is doing, for all users: readings started since
    /// it started, callers that waited for another's reading of the same file, files being read, callers waiting
    /// for a turn, and the bounds (``HashTurns``).
    private var hashingStatus: [(name: String, value: String)] {
        let digester = inspector.digester
        let counts = digester.turns.counts
        return [
            ("executables-read", String(digester.readingsStarted)),
            ("executable-readings-joined", String(digester.readingsJoined)),
            ("executables-reading", String(counts.running)), ("executables-waiting", String(counts.waiting)),
            ("executable-read-slots", "\(digester.turns.slots) (\(digester.turns.sharePerUID) per uid)"),
        ]
    }

    private func serve(_ descriptor: Int32, acceptedAt: Double) {
        let stream = SocketStream(descriptor: descriptor)
        defer { stream.close() }
        stream.setTimeout(seconds: limits.idleSeconds)
        let credentials: PeerCredentials
        do {
            credentials = try PeerCredentials.of(socket: descriptor)
        } catch {
            log.warning("a connection without peer credentials is closed: \(error)")
            return
        }
        let who = "pid \(credentials.pid) (uid \(credentials.uid))"
        if let reason = counter.admit(uid: credentials.uid) {
            log.warning("\(who) is turned away: \(reason)")
            _ = stream.write(ErrorReply(status: ErrorReply.notAvailable, reason: reason).frame(requestID: 0).encoded())
            return
        }
        defer { counter.release(uid: credentials.uid) }
        // identify() answers a refusal on the socket itself.
        guard let identified = identify(credentials, descriptor: descriptor, acceptedAt: acceptedAt, who: who) else {
            return
        }
        // What the peer wrote before this point may have been written before it exec'd the program it was
        // identified as (exec keeps the pid): the frames among those bytes are not served as requests.
        let bytesBeforeIdentification: Int
        do {
            bytesBeforeIdentification = try SystemCalls.queuedBytes(descriptor)
        } catch {
            log.warning("\(who): connection closed: \(error)")
            return
        }
        let connection = DaemonConnection(
            stream: stream, peer: identified.process, bytesBeforeIdentification: bytesBeforeIdentification,
            payloadLimit: limits.maximumPayload, idleSeconds: limits.idleSeconds, answerLimit: limits.maximumAnswer,
            answers: answers, othersAtWork: { [self] in inFlight.load(ordering: .relaxed) > 0 })
        connection.isPolicyNamedApp = identified.isPolicyNamedApp
        converse(connection, peer: identified.peer, caller: identified.caller, who: who)
    }

    /// Who the peer is: its pidfd, what the kernel says of it, and what the policy makes of that.
    private typealias Identified = (
        process: ProcessHandle, peer: PeerIdentity, caller: CallerIdentity, isPolicyNamedApp: Bool
    )

    /// The peer's identity and what the policy makes of it; a refusal is logged and answered, and gives nil.
    private func identify(
        _ credentials: PeerCredentials, descriptor: Int32, acceptedAt: Double, who: String
    ) -> Identified? {
        func refuse(_ reason: String, status: Int32 = ErrorReply.missingEntitlement) -> Identified? {
            log.warning("\(who) is refused: \(reason)")
            let reply = ErrorReply(status: status, reason: "keychaind refuses this process: " + reason)
            _ = SocketStream(descriptor: descriptor).write(reply.frame(requestID: 0).encoded())
            return nil
        }
        let process: ProcessHandle
        do {
            process = try ProcessHandle.peer(of: descriptor, pid: credentials.pid)
        } catch {
            return refuse("no pidfd for it (\(error))")
        }
        let peer: PeerIdentity
        do {
            peer = try inspector.inspect(credentials, process: process, acceptedAt: acceptedAt)
        } catch {
            return refuse(
                error.description, status: error.isBusy ? ErrorReply.notAvailable : ErrorReply.missingEntitlement)
        }
        if let reason = InheritedConnection.refusal(connection: descriptor, process: process) {
            return refuse(reason)
        }
        // The descriptors read were the connected process's only if it still runs.
        guard !process.hasExited else { return refuse("process \(credentials.pid) exited while it was identified") }
        switch resolver.withLock({ $0 }).resolve(peer) {
        case .refused(let reason):
            return refuse(reason)
        case .allowed(let caller, let basis):
            let program = peer.executablePath ?? "an unknown executable"
            log.info("\(who) running \(program) is \(caller.applicationIdentifier ?? "-") (\(basis))")
            return (process, peer, caller, CallerResolver.isPolicyRule(basis: basis))
        }
    }

    /// Reads frames and answers each until the client leaves, goes quiet too long or breaks the protocol.
    private func converse(_ connection: DaemonConnection, peer: PeerIdentity, caller: CallerIdentity, who: String) {
        defer {
            connection.answerSent()
            handler.connectionClosed(connection, peer: peer)
        }
        while true {
            switch connection.next() {
            case .frame(var frame):
                if connection.lastFrameCameBeforeIdentification
                    && (!frame.kind.isBuiltIn || connection.lastFrameCrossedIdentification)
                {
                    // Ended, not only refused: what the process writes after its exec could otherwise be read as
                    // the rest of an early frame (of any kind), and line up a request of the attacker's making
                    // after it.
                    log.warning(
                        "\(who): connection closed: a \(frame.kind) was written before the process was identified")
                    _ = connection.send(
                        ErrorReply(status: ErrorReply.param, reason: Self.earlyRequestReason)
                            .frame(requestID: frame.requestID))
                    frame.wipePayload()
                    return
                }
                var reply = answer(frame, peer: peer, caller: caller, connection: connection)
                frame.wipePayload()
                let sent = connection.send(reply)
                connection.answerSent()
                reply.wipePayload()
                guard sent else { return }
            case .closed:
                return
            case .idle(let seconds):
                log.info("\(who): connection closed after \(seconds) s without a request")
                return
            case .broken(let reason):
                log.warning("\(who): connection closed: \(reason)")
                return
            }
        }
    }

    private func answer(
        _ frame: Frame, peer: PeerIdentity, caller: CallerIdentity, connection: DaemonConnection
    ) -> Frame {
        switch frame.kind {
        case .ping:
            return Frame(kind: .pong, requestID: frame.requestID, payload: frame.payload)
        case .status:
            var fields = status.fields
            for extra in hashingStatus + handler.statusFields(peer: peer) { fields.append(extra.name, extra.value) }
            return Frame(kind: .statusReply, requestID: frame.requestID, payload: fields.encoded())
        case .identify:
            var fields = peer.fields
            fields.append("application-identifier", caller.applicationIdentifier ?? "")
            fields.append("access-groups", caller.accessGroups.joined(separator: " "))
            return Frame(kind: .identity, requestID: frame.requestID, payload: fields.encoded())
        case .explainExecutable:
            // Decoded leniently, a NUL or a byte that is not UTF-8 would make the text name another path than the
            // one the file system is asked for.
            guard !frame.payload.contains(0) else {
                return ErrorReply(status: ErrorReply.param, reason: "the path holds a NUL byte")
                    .frame(requestID: frame.requestID)
            }
            guard let path = String(validating: frame.payload, as: UTF8.self) else {
                return ErrorReply(status: ErrorReply.param, reason: "the path is not UTF-8")
                    .frame(requestID: frame.requestID)
            }
            let fields = explainExecutable(at: path, asker: peer, process: connection.process)
            return Frame(kind: .executableIdentity, requestID: frame.requestID, payload: fields.encoded())
        case .hello:
            return connection.answerHello(frame)
        case .listPolicy:
            return Frame(kind: .policyRules, requestID: frame.requestID, payload: policyListing().encoded())
        case let kind where kind.isBuiltIn:
            return ErrorReply(status: ErrorReply.unimplemented, reason: "\(kind) is not a request")
                .frame(requestID: frame.requestID)
        default:
            inFlight.add(1, ordering: .relaxed)
            defer { inFlight.subtract(1, ordering: .relaxed) }
            return handler.respond(to: frame, peer: peer, caller: caller, connection: connection)
        }
    }

    /// Why a request that came before the daemon had identified its sender is refused. The client library
    /// says hello and waits for the answer before its first request, so it never sees this.
    static let earlyRequestReason =
        "keychaind serves a request only when it was sent after the process was identified: wait for the answer "
        + "to a first hello (or ping) before the first request, since a process can exec another program meanwhile"
}
