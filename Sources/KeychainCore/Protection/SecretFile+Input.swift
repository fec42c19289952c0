import Foundation
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// Files that come from elsewhere (a backup to restore): read only when they are regular files of a bounded
/// size, so a device (`/dev/zero`), a pipe or a huge file cannot exhaust memory or hang the reader.
extension SecretFile {
    /// Reads the regular file at `url`, of at most `largest` bytes, or nil when nothing is there. A symbolic
    /// link is followed, as any tool that reads a file does; what it names must be a regular file.
    /// - Throws: `errSecParam` for anything but a regular file, and for one over `largest` bytes, before reading
    ///   any of it; `errSecIO` when it cannot be read.
    static func readRegularFile(_ url: URL, largest: Int) throws -> [UInt8]? {
        let descriptor: Int32
        do throws(SystemCallError) {
            // O_NONBLOCK: opening a FIFO without a writer would wait forever; for a regular file it changes nothing.
            descriptor = try SystemCalls.open(url.path, O_RDONLY | O_NONBLOCK | O_NOCTTY)
        } catch  where error.code == ENOENT {
            return nil
        } catch {
            throw failure(error, url)
        }
        defer { SystemCalls.close(descriptor) }
        let status = try reporting(url) { () throws(SystemCallError) in try SystemCalls.fstat(descriptor) }
        guard status.mode & UInt32(S_IFMT) == UInt32(S_IFREG) else {
            throw KeychainError.param.because(
                "\(url.path) is not a regular file but a \(Self.kind(status.mode)); only a regular file is read")
        }
        let tooLarge = KeychainError.param.because(
            "\(url.path) is larger than \(largest) bytes, more than any file read here; it was not read")
        guard status.size <= largest else { throw tooLarge }
        // One allocation of the size fstat gave, plus a byte to notice a file that grew meanwhile.
        var bytes = [UInt8](repeating: 0, count: Int(status.size) + 1)
        var filled = 0
        while filled < bytes.count {
            let count = try bytes.withUnsafeMutableBytes { buffer in
                try reporting(url) { () throws(SystemCallError) in
                    try SystemCalls.read(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
                }
            }
            if count == 0 { break }
            filled += count
        }
        guard filled <= Int(status.size) else {
            throw KeychainError.param.because("\(url.path) grew while it was read; it was not read")
        }
        bytes.removeLast(bytes.count - filled)
        return bytes
    }

    /// The file type of `mode` in a word, for a refusal (worded in the reader's language).
    private static func kind(_ mode: UInt32) -> KeychainError.Reason {
        switch mode & UInt32(S_IFMT) {
        case UInt32(S_IFDIR): KeychainError.Reason("directory")
        case UInt32(S_IFIFO): KeychainError.Reason("FIFO")
        case UInt32(S_IFCHR): KeychainError.Reason("character device")
        case UInt32(S_IFBLK): KeychainError.Reason("block device")
        case UInt32(S_IFSOCK): KeychainError.Reason("socket")
        default: KeychainError.Reason("special file")
        }
    }
}
