import Synchronization

@_implementationOnly import COpenSSL

#if canImport(Glibc)
    import Glibc
#endif

/// Random bytes for nonces, served from a per-thread buffer of OpenSSL DRBG output.
///
/// `RAND_bytes` costs about a microsecond per call here, most of it a `getpid` system call OpenSSL 3.0 makes to
/// notice a fork; for a 64-byte AES-GCM seal that is more than the encryption. Each thread therefore draws 4 KiB
/// at a time and hands out what it needs, wiping what it hands out. A forked child must never reuse its parent's
/// buffered bytes (a repeated GCM nonce reveals the authentication key), so a `pthread_atfork` child handler
/// advances a generation that makes every buffer refill before its next use. Nonces are not secret; keys never
/// come from here.
package enum NonceRandom {
    private static let poolByteCount = 4096

    /// Fills `buffer` with random bytes.
    /// - Throws: `BackendError.library` when OpenSSL's DRBG fails.
    package static func fill(_ buffer: UnsafeMutableRawBufferPointer) throws {
        guard buffer.count > 0 else { return }
        guard buffer.count <= 64, let pool = ThreadNoncePool.current() else {
            var offset = 0
            while offset < buffer.count {
                let count = min(1 << 30, buffer.count - offset)
                guard RAND_bytes(buffer.bindMemory(to: UInt8.self).baseAddress! + offset, Int32(count)) == 1 else {
                    throw OpenSSLErrorQueue.failure()
                }
                offset += count
            }
            return
        }
        try pool.take(into: buffer, refillSize: poolByteCount)
    }
}

/// Advanced in every forked child, before the child runs anything else.
private let forkGeneration = Atomic<UInt64>(0)

/// One thread's buffered random bytes. Reached only from its own thread (through a pthread key), so unlocked.
private final class ThreadNoncePool {
    private var bytes: UnsafeMutableRawBufferPointer? = nil
    private var offset = 0
    private var generation: UInt64 = 0

    deinit {
        if let bytes {
            OPENSSL_cleanse(bytes.baseAddress, bytes.count)
            bytes.deallocate()
        }
    }

    func take(into buffer: UnsafeMutableRawBufferPointer, refillSize: Int) throws {
        let current = forkGeneration.load(ordering: .acquiring)
        if bytes == nil || generation != current || offset + buffer.count > refillSize {
            if bytes == nil { bytes = .allocate(byteCount: refillSize, alignment: 16) }
            guard RAND_bytes(bytes!.bindMemory(to: UInt8.self).baseAddress, Int32(refillSize)) == 1 else {
                throw OpenSSLErrorQueue.failure()
            }
            offset = 0
            generation = current
        }
        let slice = UnsafeMutableRawBufferPointer(rebasing: bytes![offset..<(offset + buffer.count)])
        buffer.copyMemory(from: UnsafeRawBufferPointer(slice))
        OPENSSL_cleanse(slice.baseAddress, slice.count)
        offset += buffer.count
    }

    /// The calling thread's pool, made on first use; nil if the thread key could not be made.
    static func current() -> ThreadNoncePool? {
        guard let key = poolKey else { return nil }
        if let existing = pthread_getspecific(key) {
            return Unmanaged<ThreadNoncePool>.fromOpaque(existing).takeUnretainedValue()
        }
        let pool = ThreadNoncePool()
        guard pthread_setspecific(key, Unmanaged.passRetained(pool).toOpaque()) == 0 else { return nil }
        return pool
    }
}

/// The pthread key of the per-thread pools (released when their thread exits), with the fork handler installed
/// alongside it.
private let poolKey: pthread_key_t? = {
    var key = pthread_key_t()
    guard
        pthread_key_create(
            &key,
            { pointer in
                if let pointer { Unmanaged<ThreadNoncePool>.fromOpaque(pointer).release() }
            }) == 0
    else { return nil }
    guard pthread_atfork(nil, nil, { forkGeneration.add(1, ordering: .releasing) }) == 0 else { return nil }
    return key
}()
