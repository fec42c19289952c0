/// Why a password could not be read.
public enum TerminalReadError: Error, Equatable, Sendable {
    /// End of input before any password (Control-D at the prompt, or empty standard input).
    case canceled
    /// The two entries at the terminal differ.
    case mismatch
    /// A read failed with this errno.
    case io(Int32)
}
