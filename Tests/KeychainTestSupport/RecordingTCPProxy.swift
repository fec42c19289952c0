import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP proxy in front of a ``SoftwareTPM`` that records what the client sends: what anyone who can watch the
/// TPM's transport sees. It listens on a port pair (command, control), as swtpm's TCTI connects to both.
package final class RecordingTCPProxy: Sendable {
    /// The command port; the control port is the next one.
    package let port: Int
    private let targetPort: Int
    private let state = Mutex(State())

    private struct State {
        var listeners: [Int32] = []
        var sockets: [Int32] = []
        var sent: [UInt8] = []
    }

    /// The TCTI configuration that reaches the TPM through the proxy.
    package var tcti: String { "swtpm:host=127.0.0.1,port=\(port)" }

    /// The bytes the client has sent to the command port so far.
    package var sent: [UInt8] { state.withLock { $0.sent } }

    /// Starts forwarding a free port pair to `targetPort` and `targetPort + 1` on 127.0.0.1.
    package init(forwardingTo targetPort: Int) throws {
        self.targetPort = targetPort
        for _ in 0..<20 {
            let candidate = Int.random(in: 20_000..<60_000)
            guard let command = Self.listen(port: candidate) else { continue }
            guard let control = Self.listen(port: candidate + 1) else {
                close(command)
                continue
            }
            port = candidate
            state.withLock { $0.listeners = [command, control] }
            accepting(command, forwardingTo: targetPort, recording: true)
            accepting(control, forwardingTo: targetPort + 1, recording: false)
            return
        }
        throw CocoaError(.featureUnsupported)
    }

    /// Stops listening and closes every forwarded connection (their threads end on the closed sockets).
    package func stop() {
        let descriptors = state.withLock { state in
            defer {
                state.listeners = []
                state.sockets = []
            }
            return state.listeners + state.sockets
        }
        for descriptor in descriptors { shutdown(descriptor, Int32(SHUT_RDWR)) }
    }

    private static func listen(port: Int) -> Int32? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, Glibc.listen(descriptor, 8) == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private func accepting(_ listener: Int32, forwardingTo port: Int, recording: Bool) {
        Thread.detachNewThread { [self] in
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { break }
                let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                var address = Self.loopback(port: port)
                let connected = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
                guard connected == 0 else {
                    close(client)
                    close(upstream)
                    continue
                }
                state.withLock { $0.sockets += [client, upstream] }
                let connection = Connection(client: client, upstream: upstream)
                Thread.detachNewThread { [self] in
                    pump(from: client, to: upstream, recording: recording)
                    finish(connection)
                }
                Thread.detachNewThread { [self] in
                    pump(from: upstream, to: client, recording: false)
                    finish(connection)
                }
            }
            close(listener)
        }
    }

    /// A forwarded connection; the second of its two directions to end closes both sockets.
    private final class Connection: Sendable {
        let client: Int32
        let upstream: Int32
        let running = Mutex(2)

        init(client: Int32, upstream: Int32) {
            self.client = client
            self.upstream = upstream
        }
    }

    private func finish(_ connection: Connection) {
        let remaining = connection.running.withLock { count -> Int in
            count -= 1
            return count
        }
        guard remaining == 0 else { return }
        state.withLock { $0.sockets.removeAll { $0 == connection.client || $0 == connection.upstream } }
        close(connection.client)
        close(connection.upstream)
    }

    private func pump(from source: Int32, to destination: Int32, recording: Bool) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            if recording { state.withLock { $0.sent += buffer[0..<count] } }
            let written = buffer.withUnsafeBytes { send(destination, $0.baseAddress, count, Int32(MSG_NOSIGNAL)) }
            guard written == count else { break }
        }
        shutdown(destination, Int32(SHUT_WR))
    }
}
