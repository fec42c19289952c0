@_implementationOnly import COpenSSL

/// AES key wrap (RFC 3394, default initial value) with a 128, 192 or 256-bit key-encryption key.
package enum AESKeyWrapping {
    /// The largest key wrapped or unwrapped: 1 MiB.
    private static let maximumKeyByteCount = 1 << 20

    /// Wraps `key` (16 bytes or more, a multiple of 8) under `kek`; the result is 8 bytes longer.
    /// - Throws: `BackendError.incorrectKeySize` for a bad KEK, `.wrapFailure` for a key of a bad length.
    package static func wrap(_ key: UnsafeRawBufferPointer, kek: UnsafeRawBufferPointer) throws
        -> [UInt8]
    {
        // Keys, not bulk data: a bound keeps every length within OpenSSL's `int`.
        guard key.count >= 16, key.count % 8 == 0, key.count <= maximumKeyByteCount else {
            throw BackendError.wrapFailure
        }
        var output = [UInt8](repeating: 0, count: key.count + 8)
        let written = try output.withUnsafeMutableBytes { output throws in
            try run(input: key, kek: kek, encrypt: true, output: output)
        }
        guard written == output.count else { throw BackendError.wrapFailure }
        return output
    }

    /// Unwraps `wrapped` into `output` (8 bytes shorter). On failure `output` is wiped.
    /// - Throws: `BackendError.unwrapFailure` when the KEK is wrong or the blob was altered or has a bad length.
    package static func unwrap(
        _ wrapped: UnsafeRawBufferPointer, kek: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer
    ) throws {
        guard wrapped.count >= 24, wrapped.count % 8 == 0, wrapped.count <= maximumKeyByteCount + 8,
            output.count == wrapped.count - 8
        else {
            throw BackendError.unwrapFailure
        }
        // OpenSSL writes up to a block past the result while unwrapping; work in a scratch buffer.
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: wrapped.count + 16, alignment: 16)
        defer {
            ConstantTime.wipe(scratch)
            scratch.deallocate()
        }
        let written: Int
        do {
            written = try run(input: wrapped, kek: kek, encrypt: false, output: scratch)
        } catch BackendError.incorrectKeySize {
            throw BackendError.incorrectKeySize
        } catch {
            throw BackendError.unwrapFailure
        }
        guard written == output.count else { throw BackendError.unwrapFailure }
        output.copyMemory(from: UnsafeRawBufferPointer(rebasing: scratch[0..<written]))
    }

    private static func run(
        input: UnsafeRawBufferPointer, kek: UnsafeRawBufferPointer, encrypt: Bool,
        output: UnsafeMutableRawBufferPointer
    ) throws -> Int {
        let cipher = try FetchedCiphers.aes(.wrap, keyByteCount: kek.count)
        guard let context = EVP_CIPHER_CTX_new() else { throw OpenSSLErrorQueue.failure() }
        defer { EVP_CIPHER_CTX_free(context) }
        var length: Int32 = 0
        var finalLength: Int32 = 0
        let out = output.bindMemory(to: UInt8.self).baseAddress
        guard
            EVP_CipherInit_ex2(
                context, cipher, kek.bindMemory(to: UInt8.self).baseAddress, nil, encrypt ? 1 : 0, nil) == 1,
            EVP_CipherUpdate(
                context, out, &length, input.bindMemory(to: UInt8.self).baseAddress, Int32(input.count)) == 1,
            EVP_CipherFinal_ex(context, out.map { $0 + Int(length) }, &finalLength) == 1
        else { throw OpenSSLErrorQueue.failure() }
        return Int(length + finalLength)
    }
}
