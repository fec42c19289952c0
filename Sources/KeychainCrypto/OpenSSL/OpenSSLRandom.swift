@_implementationOnly import COpenSSL

/// `RAND_bytes`, in chunks its `int` length can carry.
enum OpenSSLRandom {
    static func fill(_ buffer: UnsafeMutableRawBufferPointer) throws {
        guard let base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        var offset = 0
        while offset < buffer.count {
            let chunk = min(buffer.count - offset, Int(Int32.max))
            guard RAND_bytes(base + offset, Int32(chunk)) == 1 else { throw CryptoError.openSSL("RAND_bytes") }
            offset += chunk
        }
    }
}
