internal import CryptoKitOpenSSL

/// A sealed box in one buffer, `nonce ‖ ciphertext ‖ tag`, shared by AES-GCM and ChaChaPoly: sealing writes
/// it in place, with a single allocation.
struct AEADBox: Sendable {
    let storage: Data
    let nonceByteCount: Int

    // Copies, not slices: a slice of `storage` would keep its offsets, and `box.ciphertext[0]` would trap.
    var nonce: Data { Data(storage.prefix(nonceByteCount)) }
    var ciphertext: Data { Data(storage.dropFirst(nonceByteCount).dropLast(AEAD.tagByteCount)) }
    var tag: Data { Data(storage.suffix(AEAD.tagByteCount)) }

    private init(storage: Data, nonceByteCount: Int) {
        self.storage = storage
        self.nonceByteCount = nonceByteCount
    }

    init<D: DataProtocol>(combined: D, nonceByteCount: Int) throws {
        guard combined.count >= nonceByteCount + AEAD.tagByteCount else {
            throw CryptoKitError.incorrectParameterSize
        }
        self.init(storage: Data(combined), nonceByteCount: nonceByteCount)
    }

    init<C: DataProtocol, T: DataProtocol>(nonce: Data, ciphertext: C, tag: T) throws {
        guard tag.count == AEAD.tagByteCount else { throw CryptoKitError.incorrectParameterSize }
        var storage = Data(capacity: nonce.count + ciphertext.count + tag.count)
        storage.append(nonce)
        storage.append(contentsOf: ciphertext)
        storage.append(contentsOf: tag)
        self.init(storage: storage, nonceByteCount: nonce.count)
    }

    static func seal(
        _ plaintext: UnsafeRawBufferPointer, using key: SymmetricKey, nonce: Data?, nonceByteCount: Int,
        aad: UnsafeRawBufferPointer, algorithm: AEAD
    ) throws -> AEADBox {
        let nonceCount = nonce?.count ?? nonceByteCount
        let totalCount = nonceCount + plaintext.count + AEAD.tagByteCount
        // Every byte is written below: an uninitialized buffer spares zeroing (and faulting in) a large box.
        guard let memory = malloc(totalCount) else { throw CryptoKitError.underlyingCoreCryptoError(error: -1) }
        let output = UnsafeMutableRawBufferPointer(start: memory, count: totalCount)
        do {
            try translatingErrors {
                let nonceBytes = UnsafeMutableRawBufferPointer(rebasing: output[0..<nonceCount])
                if let nonce {
                    nonce.withUnsafeBytes { nonceBytes.copyMemory(from: $0) }
                } else {
                    try NonceRandom.fill(nonceBytes)
                }
                try key.withUnsafeBytes { key in
                    try algorithm.seal(
                        key: key, nonce: UnsafeRawBufferPointer(nonceBytes), plaintext: plaintext, authenticating: aad,
                        ciphertext: UnsafeMutableRawBufferPointer(
                            rebasing: output[nonceCount..<(nonceCount + plaintext.count)]),
                        tag: UnsafeMutableRawBufferPointer(rebasing: output[(nonceCount + plaintext.count)...]))
                }
            }
        } catch {
            free(memory)
            throw error
        }
        let storage = Data(bytesNoCopy: memory, count: totalCount, deallocator: .free)
        return AEADBox(storage: storage, nonceByteCount: nonceCount)
    }

    static func open(_ box: AEADBox, using key: SymmetricKey, aad: UnsafeRawBufferPointer, algorithm: AEAD) throws
        -> Data
    {
        let bodyCount = box.storage.count - box.nonceByteCount - AEAD.tagByteCount
        var plaintext = Data(count: bodyCount)
        try translatingErrors {
            try box.storage.withUnsafeBytes { input in
                try plaintext.withUnsafeMutableBytes { output in
                    try key.withUnsafeBytes { key in
                        let bodyEnd = box.nonceByteCount + bodyCount
                        try algorithm.open(
                            key: key, nonce: UnsafeRawBufferPointer(rebasing: input[0..<box.nonceByteCount]),
                            ciphertext: UnsafeRawBufferPointer(rebasing: input[box.nonceByteCount..<bodyEnd]),
                            tag: UnsafeRawBufferPointer(rebasing: input[bodyEnd...]), authenticating: aad,
                            plaintext: output)
                    }
                }
            }
        }
        return plaintext
    }
}
