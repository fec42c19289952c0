import TerminalIO

#if canImport(Glibc)
    import Glibc
#endif

/// Where the command writes: standard output, standard error, or a buffer in tests.
public protocol OutputSink: AnyObject {
    /// Writes bytes as they are.
    func write(_ bytes: [UInt8])
}

extension OutputSink {
    /// Writes lines of text as UTF-8, with every control character but the newlines escaped
    /// (`TerminalText`): whatever values the text holds, none acts on the terminal.
    func write(_ text: String) { write(Array(TerminalText.escaped(text, keepingNewlines: true).utf8)) }

    /// Writes one line: the text with every control character escaped, newlines too, so a value cannot
    /// start a line of its own, then a newline.
    func writeLine(_ text: String) { write(Array((TerminalText.escaped(text) + "\n").utf8)) }

    /// Writes text of several lines (usage, reports), then a newline.
    func writeLines(_ text: String) { write(text + "\n") }
}

/// Writes straight to a file descriptor (1 or 2), unbuffered, so secrets never sit in a stdio buffer.
public final class FileDescriptorOutput: OutputSink {
    private let descriptor: Int32

    public init(descriptor: Int32) { self.descriptor = descriptor }

    public static func standardOutput() -> FileDescriptorOutput { FileDescriptorOutput(descriptor: 1) }
    public static func standardError() -> FileDescriptorOutput { FileDescriptorOutput(descriptor: 2) }

    public func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { _ = PosixIO.writeAll(descriptor, $0) }
    }
}

/// Keeps everything written, for tests.
public final class CapturedOutput: OutputSink {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public func write(_ bytes: [UInt8]) { self.bytes += bytes }

    /// What was written, as UTF-8 text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}
