internal import COpenSSL

/// The running state of one hash computation. A plain value: copying it forks the computation, as Apple's hash
/// function structs promise. Each conformer keeps OpenSSL's own context struct (the block interface, which runs
/// the same assembly as EVP without an allocation or a provider dispatch per hasher).
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
    private var context = SHA256_CTX()

    package init() { SHA256_Init(&context) }

    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        SHA256_Update(&context, bytes.baseAddress, bytes.count)
    }

    package func finalize(into output: UnsafeMutableRawBufferPointer) {
        var copy = context
        SHA256_Final(output.bindMemory(to: UInt8.self).baseAddress, &copy)
    }
}

/// SHA-384 (FIPS 180-4).
package struct SHA384State: HashState {
    package static let outputByteCount = 48
    package static let blockByteCount = 128
    private var context = SHA512_CTX()

    package init() { SHA384_Init(&context) }

    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        SHA384_Update(&context, bytes.baseAddress, bytes.count)
    }

    package func finalize(into output: UnsafeMutableRawBufferPointer) {
        var copy = context
        SHA384_Final(output.bindMemory(to: UInt8.self).baseAddress, &copy)
    }
}

/// SHA-512 (FIPS 180-4).
package struct SHA512State: HashState {
    package static let outputByteCount = 64
    package static let blockByteCount = 128
    private var context = SHA512_CTX()

    package init() { SHA512_Init(&context) }

    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        SHA512_Update(&context, bytes.baseAddress, bytes.count)
    }

    package func finalize(into output: UnsafeMutableRawBufferPointer) {
        var copy = context
        SHA512_Final(output.bindMemory(to: UInt8.self).baseAddress, &copy)
    }
}

/// SHA-1 (FIPS 180-4), broken for collision resistance; kept for compatibility.
package struct SHA1State: HashState {
    package static let outputByteCount = 20
    package static let blockByteCount = 64
    private var context = SHA_CTX()

    package init() { SHA1_Init(&context) }

    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        SHA1_Update(&context, bytes.baseAddress, bytes.count)
    }

    package func finalize(into output: UnsafeMutableRawBufferPointer) {
        var copy = context
        SHA1_Final(output.bindMemory(to: UInt8.self).baseAddress, &copy)
    }
}

/// MD5 (RFC 1321), broken; kept for compatibility.
package struct MD5State: HashState {
    package static let outputByteCount = 16
    package static let blockByteCount = 64
    private var context = MD5_CTX()

    package init() { MD5_Init(&context) }

    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        MD5_Update(&context, bytes.baseAddress, bytes.count)
    }

    package func finalize(into output: UnsafeMutableRawBufferPointer) {
        var copy = context
        MD5_Final(output.bindMemory(to: UInt8.self).baseAddress, &copy)
    }
}
