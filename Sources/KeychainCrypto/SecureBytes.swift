/// Secret bytes (keys, passwords) in a buffer of their own that is wiped with `OPENSSL_cleanse` when freed.
///
/// Immutable once built, so it can cross threads; its `description` never shows the contents.
package final class SecureBytes: @unchecked Sendable {  // safe: the buffer is written only inside init
    private let buffer: UnsafeMutableRawBufferPointer

    /// Allocates `count` bytes and lets `initializer` fill them.
    package init(count: Int, initializer: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
        buffer = .allocate(byteCount: Swift.max(count, 1), alignment: 16)
        let usable = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count])
        do {
            try initializer(usable)
        } catch {
            OpenSSLMemory.cleanse(buffer)
            buffer.deallocate()
            throw error
        }
        self.count = count
    }

    /// Copies `bytes` into a wiped-on-free buffer.
    package convenience init(_ bytes: some Collection<UInt8>) {
        self.init(count: bytes.count) { target in
            // Contiguous bytes are copied at once; the generic iterator path costs microseconds per key.
            let copied: Bool? = bytes.withContiguousStorageIfAvailable { source in
                target.copyMemory(from: UnsafeRawBufferPointer(source))
                return true
            }
            if copied == nil { _ = target.initializeMemory(as: UInt8.self, from: bytes) }
        }
    }

    /// The number of secret bytes.
    package let count: Int

    deinit {
        OpenSSLMemory.cleanse(buffer)
        buffer.deallocate()
    }

    /// Gives read access to the bytes for the duration of `body`.
    package func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
    }

    /// A plain copy of the bytes, for handing to a caller that owns the secret from here on.
    package var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// Compares in time that depends only on the lengths.
    package func constantTimeEquals(_ other: SecureBytes) -> Bool {
        guard count == other.count else { return false }
        return withUnsafeBytes { lhs in
            other.withUnsafeBytes { rhs in
                OpenSSLMemory.equal(lhs.baseAddress, rhs.baseAddress, count: count)
            }
        }
    }
}

extension SecureBytes: CustomStringConvertible {
    package var description: String { "SecureBytes(\(count) bytes, redacted)" }
}

/// Wipes a plain array that held a secret, then empties it. The caller owns the array: a copy that shares its
/// storage is separated from it first (copy on write), so only the caller's bytes are wiped, never through a
/// read-only pointer.
package func wipe(_ bytes: inout [UInt8]) {
    bytes.withUnsafeMutableBytes { OpenSSLMemory.cleanse($0) }
    bytes.removeAll()
}
