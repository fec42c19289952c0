import KeychainCrypto

#if canImport(Glibc)
    import Glibc
#endif

/// One class key held in pages of its own that the kernel keeps out of swap (`mlock`) and out of core dumps
/// (`MADV_DONTDUMP`), wiped (`explicit_bzero`) before they are unmapped. When the lock limit
/// (`RLIMIT_MEMLOCK`) refuses `mlock`, the key is still kept out of core dumps and wiped.
final class LockedKeyMemory: @unchecked Sendable {  // safe: the pages are written only inside init
    private let base: UnsafeMutableRawPointer
    private let mappedSize: Int
    private let count: Int
    /// Whether `mlock` took the pages.
    let isLocked: Bool

    /// Copies `key` into locked pages; nil when no pages can be mapped.
    init?(_ key: SecureBytes) {
        let page = max(Int(sysconf(Int32(_SC_PAGESIZE))), 4096)
        let size = max(page, (key.count + page - 1) / page * page)
        guard let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            mapped != MAP_FAILED
        else { return nil }
        _ = madvise(mapped, size, MADV_DONTDUMP)
        isLocked = mlock(mapped, size) == 0
        key.withUnsafeBytes { bytes in
            if let source = bytes.baseAddress { mapped.copyMemory(from: source, byteCount: bytes.count) }
        }
        base = mapped
        mappedSize = size
        count = key.count
    }

    deinit {
        explicit_bzero(base, mappedSize)
        if isLocked { _ = munlock(base, mappedSize) }
        _ = munmap(base, mappedSize)
    }

    /// A short-lived copy for one operation (wiped when freed).
    var key: SecureBytes {
        SecureBytes(count: count) { target in
            if let address = target.baseAddress { address.copyMemory(from: base, byteCount: count) }
        }
    }
}
