import KeychainCore

/// The command's exit codes.
public enum ExitCode {
    public static let success: Int32 = 0
    /// sysexits.h `EX_USAGE`: the command line could not be run as written.
    public static let usage: Int32 = 64
    /// Some other failure without an `OSStatus` (the two passwords typed differ).
    public static let failure: Int32 = 1

    /// The exit code of a keychain failure: the low byte of its `OSStatus`, as macOS's `security` exits
    /// (errSecItemNotFound -25300 → 44, errSecDuplicateItem -25299 → 45); never 0.
    public static func forStatus(_ status: Int32) -> Int32 {
        let lowByte = Int32(UInt8(truncatingIfNeeded: status))
        return lowByte == 0 ? failure : lowByte
    }
}
