import DaemonSystem
import KeychainCore
import KeychainWire
import Synchronization
import SystemCalls

/// One client's connection, as its handler sees it: the frames still to read, the questions the daemon asks
/// while a request runs (``exchange(_:)``), and what the connection created that dies with it.
package final class DaemonConnection: @unchecked Sendable {  // safe: used by its one thread; contexts are locked
    private let stream: SocketStream
    private var decoder: FrameDecoder
    /// How long a wait for the client's next request polls before it sleeps: a busy client sends it within
    /// microseconds of its answer.
    private var spin = AdaptiveSpin()
    /// Whether other connections' requests are being served: the daemon's cores have work, so a wait sleeps.
    private let othersAtWork: @Sendable () -> Bool
    private let contexts = Mutex<Set<AuthenticationContextID>>([])

    private let idleSeconds: Int
    /// Whether the daemon authenticated this connection's user for owner rights (``OwnerRights``); for its life.
    var actsAsOwner = false
    /// Whether a rule of the administrator's policy names the client as an app: such a client never acts as the
    /// owner (``OwnerRights``), whatever it proves.
    var isPolicyNamedApp = false
    /// The largest payload of a frame, both ways (`--max-message`).
    let payloadLimit: Int
    /// The largest whole answer, parts included (`--max-answer`).
    let answerLimit: Int
    /// The bytes of answers the daemon may hold while clients read them (shared by every connection).
    let answers: AnswerBudget
    /// What the answer being sent holds of that budget (``holdAnswer(_:uid:)``).
    var heldAnswer: (bytes: Int, uid: UInt32)?
    /// What the client said in its hello (protocol 2); nil while it speaks protocol 1.
    var clientHello: ProtocolHello?
    /// The keychain of the connection's uid once a request has opened it: the uid of a connection never changes,
    /// so later requests need not look it up (under the lock every connection's requests share).
    private var keychain: Keychain?
    /// The process that connected, held by its pidfd: bytes any other process sends on the connection end it,
    /// and so do bytes that come after it exited (another process may have been given its pid).
    let process: ProcessHandle
    /// How many bytes had arrived when the daemon finished identifying the peer: a frame that began among them
    /// may have been written before the process `exec`ed the program it was identified as.
    private let bytesBeforeIdentification: Int
    /// How many bytes the frames read so far took.
    private var bytesRead = 0
    /// Whether the frame ``next()`` gave last began before the daemon finished identifying the peer.
    private(set) var lastFrameCameBeforeIdentification = false
    /// Whether that frame also ended after it: its first bytes may be from before an `exec`, its last from after.
    private(set) var lastFrameCrossedIdentification = false

    init(
        stream: SocketStream, peer: ProcessHandle, bytesBeforeIdentification: Int, payloadLimit: Int,
        idleSeconds: Int, answerLimit: Int = Frame.defaultLargestAnswer, answers: AnswerBudget? = nil,
        othersAtWork: @escaping @Sendable () -> Bool = { false }
    ) {
        self.answers = answers ?? AnswerBudget(largestAnswer: answerLimit)
        self.stream = stream
        self.process = peer
        self.bytesBeforeIdentification = bytesBeforeIdentification
        self.othersAtWork = othersAtWork
        self.idleSeconds = idleSeconds
        self.payloadLimit = payloadLimit
        self.answerLimit = answerLimit
        self.decoder = FrameDecoder(payloadLimit: payloadLimit)
    }

    /// What reading the client gave.
    enum Next {
        case frame(Frame)
        /// The client closed the connection.
        case closed
        /// Nothing came for the idle limit.
        case idle(seconds: Int)
        /// The client broke the protocol, or the socket failed: why, for the log (never payload bytes).
        case broken(String)
    }

    /// The next frame of the client, or why there is none.
    func next() -> Next {
        while true {
            do {
                if let frame = try decoder.next() {
                    lastFrameCameBeforeIdentification = bytesRead < bytesBeforeIdentification
                    bytesRead += Frame.headerSize + frame.payload.count
                    lastFrameCrossedIdentification =
                        lastFrameCameBeforeIdentification && bytesRead > bytesBeforeIdentification
                    return .frame(frame)
                }
            } catch {
                return .broken(error.description)
            }
            // Straight into this connection's decoder: no array made per read.
            var outcome = SocketStream.Received.endOfStream
            var sender: Int32?
            let mayPoll = !othersAtWork()
            _ = decoder.receive { room in
                outcome = withUnsafeMutablePointer(to: &sender) { stamp in
                    stream.receive(into: room, spinning: &spin, mayPoll: mayPoll, sender: stamp)
                }
                if case .count(let count) = outcome { return count }
                return 0
            }
            switch outcome {
            case .count:
                if let refusal = refusal(of: sender) { return .broken(refusal) }
                continue
            case .endOfStream: return .closed
            case .timedOut: return .idle(seconds: idleSeconds)
            case .failed(let code): return .broken("read failed (errno \(code))")
            }
        }
    }

    /// Why bytes from the process `sender` may not be read as the connected process's, or nil when they may. The
    /// identity was learnt of the process that connected; a socket it hands to another process (inherited across
    /// `fork`, or sent over another socket), perhaps before it `exec`s an allowed program, must not carry that
    /// identity. The pid alone is compared: the stamp's uid is the real one, `SO_PEERCRED`'s the effective one.
    /// Once the process that connected has exited, its pid may name another process, which the stamp cannot tell
    /// apart: the pidfd is asked after the read, so bytes the other process sent are refused.
    private func refusal(of sender: Int32?) -> String? {
        guard let sender else { return "bytes came without the sender's credentials" }
        guard sender == process.pid else {
            return "pid \(sender) sent bytes on the connection of pid \(process.pid): a socket handed to another "
                + "process keeps no identity"
        }
        guard !process.hasExited else {
            return "bytes came from pid \(process.pid) after the process that connected with that pid exited: its pid "
                + "may have been given to another process"
        }
        return nil
    }

    func send(_ frame: Frame) -> Bool { frame.withEncodedBytes { stream.write($0) } }

    /// Sends a question and waits for the client's next frame: its answer, or nil when it is gone.
    package func exchange(_ frame: Frame) -> Frame? {
        guard send(frame), case .frame(let answer) = next(), !lastFrameCameBeforeIdentification else { return nil }
        return answer
    }

    /// The connection's keychain, found by `open` on the first call.
    package func keychain(_ open: () throws -> Keychain) rethrows -> Keychain {
        if let keychain { return keychain }
        let opened = try open()
        keychain = opened
        return opened
    }

    /// Notes a context this connection created: it is forgotten when the connection closes.
    package func noteContext(_ id: AuthenticationContextID) { _ = contexts.withLock { $0.insert(id) } }

    /// Whether this connection created the context `id` and has not forgotten it.
    package func holdsContext(_ id: AuthenticationContextID) -> Bool { contexts.withLock { $0.contains(id) } }

    package func forgetContext(_ id: AuthenticationContextID) { _ = contexts.withLock { $0.remove(id) } }

    /// The contexts still open when the connection closes.
    package var openContexts: Set<AuthenticationContextID> { contexts.withLock { $0 } }
}
