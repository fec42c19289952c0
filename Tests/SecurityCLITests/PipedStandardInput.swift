@testable import SecurityCLI

#if canImport(Glibc)
    import Glibc
#endif

/// A pipe holding `text`, closed for writing, read as the command reads a standard input that is not a
/// terminal.
final class PipedStandardInput {
    private let readEnd: Int32

    init(_ text: String) {
        var ends: [Int32] = [-1, -1]
        precondition(pipe(&ends) == 0, "pipe failed")
        readEnd = ends[0]
        Array(text.utf8).withUnsafeBytes { bytes in
            precondition(write(ends[1], bytes.baseAddress, bytes.count) == bytes.count, "short write to a pipe")
        }
        close(ends[1])
    }

    deinit { close(readEnd) }

    /// The command's reader over this pipe.
    var reader: LinePasswordReader { LinePasswordReader(descriptor: readEnd) }

    /// `-i`'s command lines from this same pipe, as the command reads a standard input that is not a terminal:
    /// a password line follows the command that asks for it.
    var commandLines: DescriptorLineSource { DescriptorLineSource(descriptor: readEnd) }
}
