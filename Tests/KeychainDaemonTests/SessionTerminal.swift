import Foundation
import KeychainTestSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A person at a pseudo-terminal that is the controlling terminal of a session of its own: shell scripts run
/// in that session (`setsid`), and the person types the next answer at each prompt (output ending in ": "), or
/// Control-D for nil. What the terminal showed is kept for the test to read.
final class SessionTerminal: Sendable {
    /// What the reading thread shares with the terminal; the thread holds this, not the terminal, so the
    /// terminal's deinit can stop it.
    private final class Shared: Sendable {
        let shown = Mutex<[UInt8]>([])
        let pending = Mutex<[String?]>([])
        let stopped = Atomic<Bool>(false)
        let done = DispatchSemaphore(value: 0)
    }

    let path: String
    private let master: Int32
    private let shared = Shared()

    init() throws {
        (master, path) = try PseudoTerminal.open()
        let master = master
        let shared = shared
        Thread.detachNewThread {
            var sinceAnswer: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 512)
            while !shared.stopped.load(ordering: .relaxed) {
                var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 50) > 0, poller.revents & Int16(POLLIN) != 0 else { continue }
                let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
                guard count > 0 else {
                    usleep(10_000)
                    continue
                }
                shared.shown.withLock { $0 += buffer[..<count] }
                sinceAnswer += buffer[..<count]
                guard String(decoding: sinceAnswer, as: UTF8.self).hasSuffix(": ") else { continue }
                guard let next = shared.pending.withLock({ $0.isEmpty ? nil : Optional($0.removeFirst()) }) else {
                    continue
                }
                let typed: [UInt8] = next.map { Array(($0 + "\n").utf8) } ?? [0x04]
                _ = typed.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
                sinceAnswer = []
            }
            shared.done.signal()
        }
    }

    deinit {
        shared.stopped.store(true, ordering: .relaxed)
        shared.done.wait()
        close(master)
    }

    /// Queues answers, one per prompt.
    func answer(_ answers: [String?]) { shared.pending.withLock { $0 += answers } }

    /// What the terminal has shown so far.
    var transcript: String { String(decoding: shared.shown.withLock { $0 }, as: UTF8.self) }

    /// Runs `script` with `sh` as the leader of a new session whose controlling terminal is this one (opened on
    /// descriptor 3, so standard output and error stay the test's pipes). `$SECURITY` names the built command.
    func runSession(_ script: String, environment: [String: String]) throws -> ChildProcess.Outcome {
        let opening = "exec 3<>\(path); "
        return try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/setsid"), ["-w", "/bin/sh", "-c", opening + script],
            environment: environment)
    }
}
