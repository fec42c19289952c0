import TerminalIO

/// Supplies the command lines of `security -i`, one at a time.
public protocol CommandLineSource: AnyObject {
    /// The next line without its newline, or nil at the end of input. `prompt` is shown first when the source
    /// is a terminal.
    func nextLine(prompt: String) -> String?
}

/// Reads lines from a file descriptor one byte at a time, so a password line that follows a command (`-w`
/// given last) is left for the password reader on the same descriptor.
public final class DescriptorLineSource: CommandLineSource {
    private let descriptor: Int32

    public init(descriptor: Int32) { self.descriptor = descriptor }

    public func nextLine(prompt: String) -> String? {
        if PosixIO.isTerminal(descriptor) {
            FileDescriptorOutput.standardOutput().write(prompt)
        }
        guard var bytes = try? LineInput.readLine(from: descriptor) else { return nil }
        defer { PosixIO.wipe(&bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Lines given up front, for tests.
public final class FixedLineSource: CommandLineSource {
    private var lines: [String]

    public init(_ lines: [String]) { self.lines = lines }

    public func nextLine(prompt: String) -> String? {
        lines.isEmpty ? nil : lines.removeFirst()
    }
}
