internal import KeychainCrypto
internal import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Terminal and pipe input and output, through `SystemCalls` (EINTR retried there; failure as an errno).
public enum PosixIO {
    /// Writes every byte, retrying short writes. - Returns: false when the descriptor refuses them.
    @discardableResult
    public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        (try? SystemCalls.writeAll(descriptor, bytes)) != nil
    }

    /// Reads one byte. - Returns: 1, or 0 at end of file.
    /// - Throws: `TerminalReadError.io` with the errno.
    public static func read(_ descriptor: Int32, into byte: inout UInt8) throws(TerminalReadError) -> Int {
        let outcome = withUnsafeMutableBytes(of: &byte) { buffer in
            Result { () throws(SystemCallError) in try SystemCalls.read(descriptor, into: buffer) }
        }
        do { return try outcome.get() } catch { throw .io(error.code) }
    }

    /// Whether the descriptor is a terminal.
    public static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// Opens the controlling terminal for reading and writing. - Returns: nil when there is none.
    public static func openTerminal() -> Int32? {
        try? SystemCalls.open("/dev/tty", O_RDWR | O_NOCTTY)
    }

    /// Opens the controlling terminal when this process may ask there. - Returns: nil when there is none, or when
    /// another process group has its foreground (``JobControl``): reading or changing it would stop this one.
    public static func openTerminalForPrompting() -> Int32? {
        guard let terminal = openTerminal() else { return nil }
        guard !JobControl.isInBackground(of: terminal) else {
            closeDescriptor(terminal)
            return nil
        }
        return terminal
    }

    public static func closeDescriptor(_ descriptor: Int32) {
        SystemCalls.close(descriptor)
    }

    /// Overwrites the bytes of an array the caller owns, then empties it: KeychainCrypto's one wipe. An array
    /// whose storage is shared is separated first (copy on write), so only the caller's copy is wiped; a secret
    /// that must not outlive its use belongs in `SecureBytes`.
    public static func wipe(_ bytes: inout [UInt8]) {
        KeychainCrypto.wipe(&bytes)
    }
}
