import SystemCalls

/// A client's connection to keychaind: sends frames and reads the answers. One request at a time.
package final class DaemonClient {
    /// Why a round trip failed.
    package enum Failure: Error, Equatable, CustomStringConvertible {
        case cannotConnect(String)
        /// The daemon closed the connection (or it broke) before answering.
        case closed
        /// The daemon sent what is not a frame.
        case malformed(FrameError)
        /// The daemon answered with a frame the exchange does not expect: what it was.
        case unexpected(String)

        package var description: String {
            switch self {
            case .cannotConnect(let reason): "cannot reach keychaind: \(reason)"
            case .closed: "keychaind closed the connection"
            case .malformed(let error): "keychaind's answer is not a frame: \(error)"
            case .unexpected(let what): "keychaind answered with \(what)"
            }
        }
    }

    private let socket: ClientSocket
    private var decoder: FrameDecoder
    private var nextID: UInt64 = 1
    /// How long a wait for the daemon polls before it sleeps: an answer usually comes within tens of microseconds.
    private var spin = AdaptiveSpin()
    /// The largest whole answer (all its parts) this client takes.
    package let answerLimit: Int
    /// What the daemon said in its ``FrameKind/helloReply``: its protocol and sizes. nil before ``negotiate()``
    /// and with a daemon of protocol 1, which answers hello with an error and never sends answers in parts.
    package private(set) var daemonHello: ProtocolHello?

    /// - Parameters:
    ///   - payloadLimit: the largest frame payload accepted (16 MiB, what protocol 1 promises).
    ///   - answerLimit: the largest whole answer accepted, parts included (1 GiB).
    package init(
        socketPath: String, payloadLimit: Int = Frame.protocolOneLargestPayload,
        answerLimit: Int = Frame.defaultLargestAnswer
    ) throws(Failure) {
        do {
            socket = try ClientSocket(path: socketPath)
        } catch {
            throw .cannotConnect(error.description)
        }
        decoder = FrameDecoder(payloadLimit: payloadLimit)
        self.answerLimit = answerLimit
    }

    /// The uid the daemon runs as, as the kernel recorded it when it made its socket; nil when it does not say.
    package var daemonUID: UInt32? { socket.serverUID }

    /// The largest frame payload this client accepts.
    package var payloadLimit: Int { decoder.payloadLimit }

    /// The largest request payload the daemon accepts, when it said (protocol 2): a larger request would only
    /// get the connection closed.
    package var requestLimit: Int? { daemonHello?.largestPayload }

    /// Says hello (protocol 2): the client's protocol and sizes go to the daemon, the daemon's are kept in
    /// ``daemonHello``. A daemon of protocol 1 answers errSecUnimplemented; the connection then stays in
    /// protocol 1 (``daemonHello`` nil).
    /// - Returns: the daemon's refusal of this connection (the policy, a connection limit), or nil.
    package func negotiate() throws(Failure) -> ErrorReply? {
        let mine = ProtocolHello(
            protocolVersion: Frame.protocolVersion, largestPayload: payloadLimit, largestAnswer: answerLimit)
        let hello = Frame(kind: .hello, requestID: takeRequestID(), payload: mine.fields.encoded())
        guard send(hello) else {
            // A daemon that refuses the connection writes why and closes it, maybe before the hello reached it:
            // the refusal is still there to read.
            if let frame = try? receive(), frame.kind == .error, let reply = try? ErrorReply.decode(frame.payload) {
                return reply
            }
            throw .closed
        }
        let answer = try receive()
        switch answer.kind {
        case .helloReply where answer.requestID == hello.requestID:
            guard let theirs = ProtocolHello.decode(answer.payload) else {
                throw .unexpected("a malformed hello-reply")
            }
            daemonHello = theirs
            return nil
        case .error:
            guard let reply = try? ErrorReply.decode(answer.payload) else { throw .unexpected("a malformed error") }
            let olderDaemon = answer.requestID == hello.requestID && reply.status == ErrorReply.unimplemented
            return olderDaemon ? nil : reply
        default:
            throw .unexpected("a \(answer.kind) frame to hello")
        }
    }

    /// A fresh request id, for a frame sent with ``send(_:)``.
    package func takeRequestID() -> UInt64 {
        defer { nextID += 1 }
        return nextID
    }

    /// Sends raw bytes (tests of hostile input).
    /// Whether this process made the connection (see ``ClientSocket/belongsToThisProcess``).
    package var belongsToThisProcess: Bool { socket.belongsToThisProcess }

    package func send(raw bytes: [UInt8]) -> Bool { socket.write(bytes) }

    package func send(_ frame: Frame) -> Bool { frame.withEncodedBytes { socket.write($0) } }

    /// The next frame from the daemon.
    package func receive() throws(Failure) -> Frame {
        while true {
            do {
                if let frame = try decoder.next() { return frame }
            } catch {
                throw .malformed(error)
            }
            // Straight into this connection's own decoder: no array per read, nothing shared with another.
            guard decoder.receive({ socket.receive(into: $0, spinning: &spin) }) > 0 else { throw .closed }
        }
    }

    /// Sends a `kind` request with a fresh id and returns the answer.
    package func request(_ kind: FrameKind, payload: [UInt8] = []) throws(Failure) -> Frame {
        let frame = Frame(kind: kind, requestID: nextID, payload: payload)
        nextID += 1
        guard send(frame) else { throw .closed }
        return try receive()
    }
}
