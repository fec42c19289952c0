#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The system calls of terminal and pipe input, in one place: each retries on `EINTR` and reports failure as
/// an errno.
public enum PosixIO {
    /// Writes every byte, retrying short writes. - Returns: false when the descriptor refuses them.
    @discardableResult
    public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// Reads one byte. - Returns: 1, or 0 at end of file.
    /// - Throws: `TerminalReadError.io` with the errno.
    public static func read(_ descriptor: Int32, into byte: inout UInt8) throws(TerminalReadError) -> Int {
        while true {
            let count = Glibc.read(descriptor, &byte, 1)
            if count >= 0 { return count }
            if errno != EINTR { throw .io(errno) }
        }
    }

    /// Whether the descriptor is a terminal.
    public static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// Opens the controlling terminal for reading and writing. - Returns: nil when there is none.
    public static func openTerminal() -> Int32? {
        while true {
            let descriptor = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
            if descriptor >= 0 { return descriptor }
            if errno != EINTR { return nil }
        }
    }

    public static func closeDescriptor(_ descriptor: Int32) {
        _ = close(descriptor)
    }

    /// Overwrites the bytes of an array in place. The storage is wiped directly, without the copy-on-write a
    /// mutation would make, so every copy that shares it (a new item's data, a parsed command) is wiped too.
    public static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            if let base = buffer.baseAddress { explicit_bzero(UnsafeMutableRawPointer(mutating: base), buffer.count) }
        }
    }
}
