import Foundation
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
        // /dev/ptmx by hand: posix_openpt and friends are not imported. The two requests are Linux's
        // TIOCSPTLCK (unlock the pair) and TIOCGPTN (its number), the same on x86_64 and arm64.
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
            throw POSIXError(.ENXIO)
        }
        path = "/dev/pts/\(number)"
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

/// A PAM service directory for tests: service `keychain-test` accepts exactly `password`, checked by a script
/// that `pam_exec` gives the typed password on standard input.
struct PAMServiceFixture {
    static let service = "keychain-test"
    let directory: URL

    init(password: String) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pam-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let check = directory.appendingPathComponent("check-password")
        try "#!/bin/sh\nread -r typed\n[ \"$typed\" = '\(password)' ]\n".write(
            to: check, atomically: true, encoding: .utf8)
        chmod(check.path, 0o700)
        // As Debian's common-auth: success skips the deny; anything else falls through to it.
        let stack = """
            auth [success=1 default=ignore] pam_exec.so expose_authtok quiet \(check.path)
            auth requisite pam_deny.so
            auth required pam_permit.so
            account required pam_permit.so

            """
        try stack.write(to: directory.appendingPathComponent(Self.service), atomically: true, encoding: .utf8)
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
