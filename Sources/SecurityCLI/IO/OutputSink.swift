#if canImport(Glibc)
    import Glibc
#endif
import TerminalIO

/// Where the command writes: standard output, standard error, or a buffer in tests.
public protocol OutputSink: AnyObject {
    /// Writes bytes as they are.
    func write(_ bytes: [UInt8])
}

extension OutputSink {
    /// Writes text as UTF-8.
    func write(_ text: String) { write(Array(text.utf8)) }

    /// Writes text and a newline.
    func writeLine(_ text: String) { write(text + "\n") }
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
