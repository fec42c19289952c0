import Foundation
import Synchronization

/// The daemon's log: one line per event on standard error (the journal under systemd). Lines name peers, sizes
/// and reasons, never a payload byte, so no secret can reach it. Control characters are escaped: a line may quote
/// text a client chose (its program's path), which must not start a line of its own (a forged "owner rights
/// granted") or drive a terminal.
package final class DaemonLog: Sendable {
    private let lock = Mutex(())
    private let write: @Sendable (String) -> Void

    /// A log writing to standard error.
    package init() {
        write = { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }
    }

    /// A log handing each line to `sink` (tests).
    package init(sink: @escaping @Sendable (String) -> Void) { write = sink }

    package func info(_ message: String) { emit("keychaind: " + message) }
    package func warning(_ message: String) { emit("keychaind: warning: " + message) }

    private func emit(_ line: String) {
        let printable = Self.printable(line)
        lock.withLock { _ in write(printable) }
    }

    /// `line` with each control character (C0, DEL and C1) and backslash written as `\xNN`.
    static func printable(_ line: String) -> String {
        guard line.unicodeScalars.contains(where: isControl) else { return line }
        var result = ""
        for scalar in line.unicodeScalars {
            if isControl(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\x" + (hex.count < 2 ? "0" : "") + hex
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Control characters, and the backslash, so that an escape in the log always stands for one of them.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\\"
    }
}
