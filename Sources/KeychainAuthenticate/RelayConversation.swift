import PAMSession
import TerminalIO

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// PAM's conversation relayed through standard input and output instead of a terminal: the way keychaind runs
/// the helper, forwarding each message to its client and the typed answer back (docs/keychaind.md, "Prompts").
///
///     helper -> relay:  style (1 hidden question, 2 visible question, 3 information, 4 error) | length | UTF-8
///     relay -> helper:  0 | length | the typed bytes      1 (the user canceled)
///
/// Lengths are 32-bit big-endian. An end of input, or anything else, cancels.
final class RelayConversation: PAMConversation {
    private let input: Int32
    private let output: Int32

    init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        self.input = input
        self.output = output
    }

    func ask(_ prompt: String, hidden: Bool) -> [UInt8]? {
        guard send(hidden ? 1 : 2, prompt) else { return nil }
        var tag: UInt8 = 1
        guard readExactly(&tag, count: 1), tag == 0, let length = readLength(), length <= 4096 else { return nil }
        var typed = [UInt8](repeating: 0, count: length)
        guard typed.withUnsafeMutableBytes({ readInto($0) }) else {
            PosixIO.wipe(&typed)
            return nil
        }
        return typed
    }

    func tell(_ message: String) { tell(message, isError: false) }

    func tell(_ message: String, isError: Bool) { _ = send(isError ? 4 : 3, message) }

    /// Information of the helper's own (the reason, fprintd's "place a finger").
    func say(_ text: String) { tell(text) }

    private func send(_ style: UInt8, _ text: String) -> Bool {
        let body = Array(text.utf8)
        let count = UInt32(body.count)
        var message: [UInt8] = [style, UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF)]
        message.append(UInt8(count & 0xFF))
        message += body
        return message.withUnsafeBytes { PosixIO.writeAll(output, $0) }
    }

    private func readLength() -> Int? {
        var bytes = [UInt8](repeating: 0, count: 4)
        guard bytes.withUnsafeMutableBytes({ readInto($0) }) else { return nil }
        return bytes.reduce(0) { $0 << 8 | Int($1) }
    }

    private func readExactly(_ byte: inout UInt8, count: Int) -> Bool {
        withUnsafeMutableBytes(of: &byte) { readInto($0) }
    }

    private func readInto(_ buffer: UnsafeMutableRawBufferPointer) -> Bool {
        var done = 0
        while done < buffer.count {
            let count = Glibc.read(input, buffer.baseAddress.map { $0 + done }, buffer.count - done)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            done += count
        }
        return true
    }
}
