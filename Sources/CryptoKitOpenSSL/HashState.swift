@_implementationOnly import COpenSSL

/// The running state of one hash computation. A plain value: copying it forks the computation, as Apple's hash
/// function structs promise. Each conformer keeps OpenSSL's own context struct (the block interface, which runs
/// the same assembly as EVP without an allocation or a provider dispatch per hasher), stored as words of the
/// same size (``OpenSSLContextWords``), so that OpenSSL's types stay out of the module's layouts.
package protocol HashState: Sendable {
    /// Bytes in the digest.
    static var outputByteCount: Int { get }
    /// Bytes in the hash function's input block.
    static var blockByteCount: Int { get }
    /// A fresh computation.
    init()
    /// Absorbs `bytes`.
    mutating func update(_ bytes: UnsafeRawBufferPointer)
    /// Writes the digest of everything absorbed so far into `output` (`outputByteCount` bytes), leaving this
    /// state as it was.
    func finalize(into output: UnsafeMutableRawBufferPointer)
}

extension HashState {
    /// The digest of everything absorbed so far, as bytes.
    package func finalizedBytes() -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Self.outputByteCount)
        output.withUnsafeMutableBytes { finalize(into: $0) }
        return output
    }
}

/// SHA-256 (FIPS 180-4).
package struct SHA256State: HashState {
    package static let outputByteCount = 32
    package static let blockByteCount = 64
    private var context = InlineArray<14, UInt64>(repeating: 0)

    package init() { OpenSSLContextWords.with(&context, as: SHA256_CTX.self) { _ = SHA256_Init($0) } }

    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        OpenSSLContextWords.with(&context, as: SHA256_CTX.self) {
            _ = SHA256_Update($0, bytes.baseAddress, bytes.count)
        }
    }

    package func finalize(into output: UnsafeMutableRawBufferPointer) {
        var copy = context
        OpenSSLContextWords.with(&copy, as: SHA256_CTX.self) {
            _ = SHA256_Final(output.bindMemory(to: UInt8.self).baseAddress, $0)
        }
    }
}

/// SHA-384 (FIPS 180-4).
package struct SHA384State: HashState {
    package static let outputByteCount = 48
    package static let blockByteCount = 128
    private var context = InlineArray<27, UInt64>(repeating: 0)

    package init() { OpenSSLContextWords.with(&context, as: SHA512_CTX.self) { _ = SHA384_Init($0) } }

    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        OpenSSLContextWords.with(&context, as: SHA512_CTX.self) {
            _ = SHA384_Update($0, bytes.baseAddress, bytes.count)
        }
    }

    package func finalize(into output: UnsafeMutableRawBufferPointer) {
        var copy = context
        OpenSSLContextWords.with(&copy, as: SHA512_CTX.self) {
            _ = SHA384_Final(output.bindMemory(to: UInt8.self).baseAddress, $0)
        }
    }
}

/// SHA-512 (FIPS 180-4).
package struct SHA512State: HashState {
    package static let outputByteCount = 64
    package static let blockByteCount = 128
    private var context = InlineArray<27, UInt64>(repeating: 0)

    package init() { OpenSSLContextWords.with(&context, as: SHA512_CTX.self) { _ = SHA512_Init($0) } }

    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        OpenSSLContextWords.with(&context, as: SHA512_CTX.self) {
            _ = SHA512_Update($0, bytes.baseAddress, bytes.count)
        }
    }

    package func finalize(into output: UnsafeMutableRawBufferPointer) {
        var copy = context
        OpenSSLContextWords.with(&copy, as: SHA512_CTX.self) {
            _ = SHA512_Final(output.bindMemory(to: UInt8.self).baseAddress, $0)
        }
    }
}

/// SHA-1 (FIPS 180-4), broken for collision resistance; kept for compatibility.
package struct SHA1State: HashState {
    package static let outputByteCount = 20
    package static let blockByteCount = 64
    private var context = InlineArray<12, UInt64>(repeating: 0)

    package init() { OpenSSLContextWords.with(&context, as: SHA_CTX.self) { _ = SHA1_Init($0) } }

    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        OpenSSLContextWords.with(&context, as: SHA_CTX.self) { _ = SHA1_Update($0, bytes.baseAddress, bytes.count) }
    }

    package func finalize(into output: UnsafeMutableRawBufferPointer) {
        var copy = context
        OpenSSLContextWords.with(&copy, as: SHA_CTX.self) {
            _ = SHA1_Final(output.bindMemory(to: UInt8.self).baseAddress, $0)
        }
    }
}

/// MD5 (RFC 1321), broken; kept for compatibility.
package struct MD5State: HashState {
    package static let outputByteCount = 16
    package static let blockByteCount = 64
    private var context = InlineArray<23, UInt32>(repeating: 0)

    package init() { OpenSSLContextWords.with(&context, as: MD5_CTX.self) { _ = MD5_Init($0) } }

    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        OpenSSLContextWords.with(&context, as: MD5_CTX.self) { _ = MD5_Update($0, bytes.baseAddress, bytes.count) }
    }

    package func finalize(into output: UnsafeMutableRawBufferPointer) {
        var copy = context
        OpenSSLContextWords.with(&copy, as: MD5_CTX.self) {
            _ = MD5_Final(output.bindMemory(to: UInt8.self).baseAddress, $0)
        }
    }
}

/// OpenSSL's context structs kept as plain words of exactly their size and at least their alignment.
package enum OpenSSLContextWords {
    /// Runs `body` on `words` seen as a `Context`.
    @inline(__always)
    static func with<Words, Context, Result>(
        _ words: inout Words, as context: Context.Type, _ body: (UnsafeMutablePointer<Context>) -> Result
    ) -> Result {
        precondition(fits(Words.self, Context.self), "the words do not have the context's layout")
        return withUnsafeMutablePointer(to: &words) { $0.withMemoryRebound(to: Context.self, capacity: 1, body) }
    }

    @inline(__always)
    private static func fits<Words, Context>(_ words: Words.Type, _ context: Context.Type) -> Bool {
        MemoryLayout<Words>.stride == MemoryLayout<Context>.stride
            && MemoryLayout<Words>.alignment >= MemoryLayout<Context>.alignment
    }

    /// Whether every hash state's words have its context's layout (checked by a test as well as at each use).
    package static var layoutsMatch: Bool {
        fits(InlineArray<14, UInt64>.self, SHA256_CTX.self) && fits(InlineArray<27, UInt64>.self, SHA512_CTX.self)
            && fits(InlineArray<12, UInt64>.self, SHA_CTX.self) && fits(InlineArray<23, UInt32>.self, MD5_CTX.self)
    }
}
