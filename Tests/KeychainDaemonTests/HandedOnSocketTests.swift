import DaemonSystem
import Foundation
import KeychainWire
import SystemCalls
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A connection's identity is that of the process that connected. Another process that gets the socket (a child
/// across `fork`, or one sent it over another socket) while the first `exec`s an allowed program, must not speak
/// with that identity: the kernel stamps each process's bytes (`SO_PASSCRED`), and bytes of another process end
/// the connection.
@Suite(.serialized) struct HandedOnSocketTests {
    @Test func bytesFromAnotherProcessOnAConnectionEndIt() throws {
        let daemon = try DaemonProcess()
        let descriptor = try UnixConnector.connect(to: daemon.socketPath)
        defer { SystemCalls.close(descriptor) }
        try SystemCalls.setTimeouts(descriptor, seconds: 10)
        // The process that connected is served.
        try SystemCalls.sendAll(descriptor, Frame(kind: .identify, requestID: 1, payload: []).encoded())
        let first = try Self.nextFrame(on: descriptor)
        #expect(first?.kind == .identity)
        // A child sends the same request on the inherited socket: only write(2) after fork, made ready before.
        let request = Frame(kind: .identify, requestID: 2, payload: []).encoded()
        let child = request.withUnsafeBytes { bytes in
            let child = fork()
            if child == 0 { _exit(write(descriptor, bytes.baseAddress, bytes.count) == bytes.count ? 0 : 1) }
            return child
        }
        var status: Int32 = 0
        waitpid(child, &status, 0)
        #expect(child > 0 && status == 0)
        #expect(try Self.nextFrame(on: descriptor) == nil, "the child's request was answered")
        #expect(daemon.waitForLog("pid \(child) sent bytes on the connection of pid \(getpid())"))
    }

    /// The next frame on `descriptor`, or nil when the daemon closed the connection.
    static func nextFrame(on descriptor: Int32) throws -> Frame? {
        var decoder = FrameDecoder(payloadLimit: 1 << 20)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if let frame = try decoder.next() { return frame }
            let received = buffer.withUnsafeMutableBytes { raw in
                Result { () throws(SystemCallError) in try SystemCalls.receive(descriptor, into: raw) }
            }
            switch received {
            case .success(let count) where count > 0: decoder.append(Array(buffer[0..<count]))
            case .success: return nil
            case .failure(let error) where error.code == ECONNRESET: return nil
            case .failure(let error): throw error
            }
        }
    }
}
