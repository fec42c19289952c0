/// A client's connection to keychaind: sends frames and reads the answers. One request at a time.
package final class DaemonClient {
    /// Why a round trip failed.
    package enum Failure: Error, Equatable, CustomStringConvertible {
        case cannotConnect(String)
        /// The daemon closed the connection (or it broke) before answering.
        case closed
        /// The daemon sent what is not a frame.
        case malformed(FrameError)

        package var description: String {
            switch self {
            case .cannotConnect(let reason): "cannot reach keychaind: \(reason)"
            case .closed: "keychaind closed the connection"
            case .malformed(let error): "keychaind's answer is not a frame: \(error)"
            }
        }
    }

    private let socket: ClientSocket
    private var decoder: FrameDecoder
    private var nextID: UInt64 = 1

    package init(socketPath: String, payloadLimit: Int = 16 << 20) throws(Failure) {
        do {
            socket = try ClientSocket(path: socketPath)
        } catch {
            throw .cannotConnect(error.description)
        }
        decoder = FrameDecoder(payloadLimit: payloadLimit)
    }

    /// A fresh request id, for a frame sent with ``send(_:)``.
    package func takeRequestID() -> UInt64 {
        defer { nextID += 1 }
        return nextID
    }

    /// Sends raw bytes (tests of hostile input).
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
            guard decoder.receive({ socket.receive(into: $0) }) > 0 else { throw .closed }
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
