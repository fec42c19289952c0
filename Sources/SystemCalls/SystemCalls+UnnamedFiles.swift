#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `O_TMPFILE` and `AT_EMPTY_PATH`, which glibc declares only under `_GNU_SOURCE` (which Swift's Glibc module
/// is not built with): the kernel's values, the same on x86-64 and arm64.
private let openTemporaryFile: Int32 = 0o20_000_000 | O_DIRECTORY
private let emptyPath: Int32 = 0x1000

/// Files that get their name only once complete (`O_TMPFILE`): a process killed while writing one leaves nothing
/// behind, where a named temporary file would stay forever.
extension SystemCalls {
    /// Opens a new file without a name in `directory` (`O_TMPFILE`), for writing, with `mode` (less the umask).
    /// - Throws: `EOPNOTSUPP` (or `EISDIR`, `EINVAL` on older kernels) where the file system cannot.
    package static func openUnnamed(inDirectory directory: String, mode: mode_t) throws(SystemCallError) -> Int32 {
        try retrying("open", path: directory) { Glibc.open(directory, openTemporaryFile | O_WRONLY | O_CLOEXEC, mode) }
    }

    /// Gives the unnamed file open as `descriptor` the name `path`; fails with `EEXIST` when the name exists (a
    /// link never replaces a file, and a symbolic link there counts as existing).
    package static func linkUnnamed(_ descriptor: Int32, to path: String) throws(SystemCallError) {
        // /proc/self/fd needs no privilege; AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH, so it is the fallback for a
        // process without /proc.
        do throws(SystemCallError) {
            try retrying("link", path: path) {
                Glibc.linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", AT_FDCWD, path, AT_SYMLINK_FOLLOW)
            }
        } catch  where error.code == ENOENT {
            try retrying("link", path: path) { Glibc.linkat(descriptor, "", AT_FDCWD, path, emptyPath) }
        }
    }
}
