/// A copy of secret bytes crossing to or from the worker thread (an auth value, a digest, a peer point; a shared
/// secret). Neither side's array is shared with the other, whose hold may outlast the wait, so each side's own wipe
/// stays in place; the copy is zeroed when its last holder lets go. Immutable after `init` (hence Sendable), read on
/// the thread only.
final class TPMSecretCopy: @unchecked Sendable {
    private let storage: UnsafeMutableRawBufferPointer

    init(_ source: [UInt8]) {
        storage = .allocate(byteCount: source.count, alignment: 1)
        source.withUnsafeBytes { storage.copyMemory(from: $0) }
    }

    /// `significant` left-padded with zeros to `length` bytes (an ECC coordinate as big-endian bytes of a fixed
    /// size), copied from the TPM's answer without an array in between.
    init(leftPadding significant: UnsafeRawBufferPointer, to length: Int) {
        storage = .allocate(byteCount: length, alignment: 1)
        storage.initializeMemory(as: UInt8.self, repeating: 0)
        let count = min(significant.count, length)
        UnsafeMutableRawBufferPointer(rebasing: storage[(length - count)...]).copyMemory(
            from: UnsafeRawBufferPointer(rebasing: significant.prefix(count)))
    }

    deinit {
        storage.initializeMemory(as: UInt8.self, repeating: 0)
        storage.deallocate()
    }

    var count: Int { storage.count }

    /// A new array of the bytes, for a caller that then owns the only copy (and wipes it).
    var bytes: [UInt8] { Array(UnsafeRawBufferPointer(storage)) }

    /// Copies the bytes to the start of `buffer` (a TPM2B's buffer, which the caller checked is large enough).
    func copy<Buffer>(into buffer: inout Buffer) {
        withUnsafeMutableBytes(of: &buffer) { $0.copyMemory(from: UnsafeRawBufferPointer(storage)) }
    }
}
