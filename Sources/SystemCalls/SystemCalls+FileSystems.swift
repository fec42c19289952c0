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
