/// HMAC (RFC 2104) over any of CryptoKit's hash functions.
public struct HMAC<H: HashFunction>: MACAlgorithm, Sendable {
    public typealias Key = SymmetricKey
    public typealias MAC = HashedAuthenticationCode<H>

    private var inner: H
    private var outer: H

    /// An authenticator keyed with `key`. A key longer than the hash's block is hashed first (RFC 2104).
    /// - Parameter key: The key.
    public init(key: SymmetricKey) {
        var block = [UInt8](repeating: 0, count: H.blockByteCount)
        defer { block.withUnsafeMutableBytes { wipeBytes($0) } }
        key.withUnsafeBytes { keyBytes in
            if keyBytes.count > H.blockByteCount {
                H.hash(bufferPointer: keyBytes).withUnsafeBytes { digest in
                    block.withUnsafeMutableBytes { $0.copyMemory(from: digest) }
                }
            } else {
                block.withUnsafeMutableBytes { $0.copyMemory(from: keyBytes) }
            }
        }
        for index in block.indices { block[index] ^= 0x36 }
        var inner = H()
        block.withUnsafeBytes { inner.update(bufferPointer: $0) }
        for index in block.indices { block[index] ^= 0x36 ^ 0x5C }
        var outer = H()
        block.withUnsafeBytes { outer.update(bufferPointer: $0) }
        self.inner = inner
        self.outer = outer
    }

    /// Absorbs the bytes of `bufferPointer`.
    /// - Parameter bufferPointer: The bytes to authenticate.
    public mutating func update(bufferPointer: UnsafeRawBufferPointer) {
        inner.update(bufferPointer: bufferPointer)
    }

    /// Absorbs `data`.
    /// - Parameter data: The data to authenticate.
    public mutating func update<D: DataProtocol>(data: D) {
        inner.update(data: data)
    }

    /// Returns the code of everything absorbed so far; the authenticator can go on absorbing.
    /// - Returns: The authentication code.
    public func finalize() -> MAC {
        var outer = self.outer
        inner.finalize().withUnsafeBytes { outer.update(bufferPointer: $0) }
        return HashedAuthenticationCode(digest: outer.finalize())
    }

    /// Computes the code of `data` under `key`.
    /// - Parameters:
    ///   - data: The data to authenticate.
    ///   - key: The key.
    /// - Returns: The authentication code.
    public static func authenticationCode<D: DataProtocol>(for data: D, using key: SymmetricKey) -> MAC {
        var authenticator = Self(key: key)
        authenticator.update(data: data)
        return authenticator.finalize()
    }

    /// Computes the code of the bytes in `bufferPointer` under `key`.
    /// - Parameters:
    ///   - bufferPointer: The bytes to authenticate.
    ///   - key: The key.
    /// - Returns: The authentication code.
    public static func authenticationCode(bufferPointer: UnsafeRawBufferPointer, using key: SymmetricKey) -> MAC {
        var authenticator = Self(key: key)
        authenticator.update(bufferPointer: bufferPointer)
        return authenticator.finalize()
    }

    /// Whether `mac` authenticates `authenticatedData` under `key`, compared in constant time.
    /// - Parameters:
    ///   - mac: The code to check.
    ///   - authenticatedData: The data it claims to authenticate.
    ///   - key: The key.
    /// - Returns: `true` when the code is valid.
    public static func isValidAuthenticationCode<D: DataProtocol>(
        _ mac: MAC, authenticating authenticatedData: D, using key: SymmetricKey
    ) -> Bool {
        authenticationCode(for: authenticatedData, using: key) == mac
    }

    /// Whether the bytes of `authenticationCode` authenticate `authenticatedData` under `key`, compared in
    /// constant time.
    /// - Parameters:
    ///   - authenticationCode: The code to check, as bytes.
    ///   - authenticatedData: The data it claims to authenticate.
    ///   - key: The key.
    /// - Returns: `true` when the code is valid.
    public static func isValidAuthenticationCode<C: ContiguousBytes, D: DataProtocol>(
        _ authenticationCode: C, authenticating authenticatedData: D, using key: SymmetricKey
    ) -> Bool {
        constantTimeEquals(Self.authenticationCode(for: authenticatedData, using: key), authenticationCode)
    }

    /// Whether `mac` authenticates the bytes in `bufferPointer` under `key`, compared in constant time.
    /// - Parameters:
    ///   - mac: The code to check.
    ///   - bufferPointer: The bytes it claims to authenticate.
    ///   - key: The key.
    /// - Returns: `true` when the code is valid.
    public static func isValidAuthenticationCode(
        _ mac: MAC, authenticating bufferPointer: UnsafeRawBufferPointer, using key: SymmetricKey
    ) -> Bool {
        authenticationCode(bufferPointer: bufferPointer, using: key) == mac
    }
}

/// The output of ``HMAC``: compares in constant time, prints as Apple's does, and is a sequence of bytes.
public struct HashedAuthenticationCode<H: HashFunction>: MessageAuthenticationCode {
    let digest: H.Digest

    init(digest: H.Digest) { self.digest = digest }

    /// The number of bytes in the code.
    public var byteCount: Int { H.Digest.byteCount }

    /// Calls `body` with the code's bytes.
    /// - Parameter body: A closure that reads the bytes.
    /// - Returns: What `body` returns.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try digest.withUnsafeBytes(body)
    }

    /// An iterator over the code's bytes.
    public func makeIterator() -> Array<UInt8>.Iterator { Array(digest).makeIterator() }

    /// The hash function's name and the code in hexadecimal, as Apple's codes print.
    public var description: String { "HMAC with \(H.self): \(Array(digest).hexString)" }

    /// Whether two codes are equal, compared in constant time.
    public static func == (lhs: Self, rhs: Self) -> Bool { constantTimeEquals(lhs.digest, rhs.digest) }

    /// Feeds the code's bytes to `hasher`.
    public func hash(into hasher: inout Hasher) { digest.withUnsafeBytes { hasher.combine(bytes: $0) } }
}
