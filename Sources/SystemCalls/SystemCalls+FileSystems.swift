@_implementationOnly import CSystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What a file's file system says of it: its type, and extended attributes.
extension SystemCalls {
    /// The type of the file system (`f_type` of `fstatfs`) of the file open as `descriptor`.
    package static func fileSystemType(_ descriptor: Int32) throws(SystemCallError) -> Int {
        Int(try retrying("fstatfs") { ksys_file_system_type(descriptor) })
    }

    /// `path` (relative) opened below the directory `directory` with `flags`, following no link on the way and
    /// never leaving the directory (`openat2` with `RESOLVE_NO_SYMLINKS`, `RESOLVE_NO_MAGICLINKS` and
    /// `RESOLVE_BENEATH`). - Throws: `ENOSYS` before Linux 5.6, `ELOOP` at a link.
    package static func openWithoutLinks(
        _ path: String, beneath directory: Int32, flags: Int32
    ) throws(SystemCallError) -> Int32 {
        try retrying("openat2", path: path) { ksys_open_beneath_without_links(directory, path, flags) }
    }

    /// `O_PATH` (Linux), which Glibc's Swift module leaves out: a descriptor that names a file without opening it.
    package static let pathOnly: Int32 = 0o10_000_000

    /// Opens for reading the file that the path-only descriptor `pathDescriptor` names (through `/proc/self/fd`,
    /// so the same file, whatever its name names now), without taking a terminal as the controlling one or
    /// waiting: for a file first checked through its path-only descriptor. -1 when it cannot be opened.
    package static func openForReading(pathDescriptor: Int32) -> Int32 {
        Glibc.open("/proc/self/fd/\(pathDescriptor)", O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
    }

    /// `/proc`'s file system type (`PROC_SUPER_MAGIC`).
    package static let procFileSystemType = 0x9fa0

    /// Whether the file at `path` has a POSIX access control list (`system.posix_acl_access`); false on a file
    /// system without extended attributes.
    package static func hasAccessControlList(_ path: String) throws(SystemCallError) -> Bool {
        do {
            return try retrying("getxattr", path: path) { ksys_has_access_list(path) } == 1
        } catch {
            if error.code == ENOTSUP { return false }
            throw error
        }
    }
}
