@_implementationOnly import COpenSSL

/// Byte comparisons and wiping that the compiler cannot shortcut.
package enum ConstantTime {
    /// Whether `lhs` and `rhs` hold the same bytes, in time that depends only on their lengths.
    package static func equal(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard lhs.count > 0 else { return true }
        return CRYPTO_memcmp(lhs.baseAddress, rhs.baseAddress, lhs.count) == 0
    }

    /// Overwrites `buffer` with zeros in a way that is not optimised away.
    package static func wipe(_ buffer: UnsafeMutableRawBufferPointer) {
        guard buffer.count > 0 else { return }
        OPENSSL_cleanse(buffer.baseAddress, buffer.count)
    }
}
