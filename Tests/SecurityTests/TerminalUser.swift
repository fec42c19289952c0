import Foundation
import KeychainTestSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A person at a pseudo-terminal: waits for each prompt (a line ending in ": ") and types the next answer, or
/// Control-D for nil. What the terminal showed is kept for the test to read.
final class TerminalUser: Sendable {
    /// The terminal's device path, for the program that asks.
    let path: String
    private let master: Int32
    private let shown = Mutex<[UInt8]>([])
    private let done = DispatchSemaphore(value: 0)

    init() throws {
        (master, path) = try PseudoTerminal.open()
    }

    deinit { close(master) }

    /// Starts answering `answers` in order, one per prompt (output ending in `prompt`), in the background,
    /// taking `delay` seconds to type each.
    func answer(_ answers: [String?], at prompt: String = ": ", delay: Double = 0, within seconds: Double = 20) {
        let master = master
        Thread.detachNewThread { [self] in
            var pending = answers[...]
            var sinceAnswer: [UInt8] = []
            let deadline = Date().addingTimeInterval(seconds)
            var buffer = [UInt8](repeating: 0, count: 512)
            while !pending.isEmpty, Date() < deadline {
                var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 50) > 0, poller.revents & Int16(POLLIN) != 0 else { continue }
                let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
                guard count > 0 else {
                    usleep(10_000)
                    continue
                }
                shown.withLock { $0 += buffer[..<count] }
                sinceAnswer += buffer[..<count]
                guard String(decoding: sinceAnswer, as: UTF8.self).hasSuffix(prompt) else { continue }
                if delay > 0 { usleep(UInt32(delay * 1_000_000)) }
                let typed: [UInt8] = pending.removeFirst().map { Array(($0 + "\n").utf8) } ?? [0x04]
                _ = typed.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
                sinceAnswer = []
            }
            done.signal()
        }
    }

    /// Reads and keeps what the terminal has shown so far, so that the next `answer` waits for a new prompt.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 0) > 0, poller.revents & Int16(POLLIN) != 0 else { return }
            let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            shown.withLock { $0 += buffer[..<count] }
        }
    }

    /// Waits for the answering to end, then returns what the terminal showed.
    func transcript() -> String {
        done.wait()
        return String(decoding: shown.withLock { $0 }, as: UTF8.self)
    }
}
