#if canImport(Glibc)
    import Glibc
#endif

extension Array where Element == UInt8 {
    /// Overwrites the bytes with zeros in a way the compiler does not drop as a dead store (`explicit_bzero`): a
    /// message may hold a secret. Other copies of the same array's storage are left alone.
    package mutating func wipe() {
        withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            explicit_bzero(base, raw.count)
        }
    }
}
