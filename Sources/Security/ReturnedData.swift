import Foundation

/// The `CFData` a SecItem function returns (`kSecReturnData`, a result dictionary's `v_Data` and
/// `v_PersistentRef`): an `NSData` like any other, its bytes held by this object. Foundation on Linux turns an
/// `NSData` into `Data` (`result as? Data`) one byte at a time, asking the object for its length and bytes for
/// each; a plain `NSData` answers each through Core Foundation, several hundred instructions a byte. This one
/// answers from two stored fields. Its bytes are wiped when it goes; an archive names it `NSData`.
final class ReturnedData: NSData {
    private let start: UnsafeMutableRawPointer
    private let count: Int

    /// A copy of `source`.
    init(copying source: UnsafeRawBufferPointer) {
        // At least one byte, so that `bytes` of empty data is still a valid pointer.
        start = .allocate(byteCount: Swift.max(source.count, 1), alignment: 16)
        start.initializeMemory(as: UInt8.self, repeating: 0, count: Swift.max(source.count, 1))
        if let base = source.baseAddress, source.count > 0 { start.copyMemory(from: base, byteCount: source.count) }
        count = source.count
        super.init()
    }

    /// A copy of `bytes`.
    static func holding(_ bytes: [UInt8]) -> ReturnedData {
        bytes.withUnsafeBytes { ReturnedData(copying: $0) }
    }

    required init?(coder: NSCoder) { nil }

    deinit {
        start.initializeMemory(as: UInt8.self, repeating: 0, count: Swift.max(count, 1))
        start.deallocate()
    }

    override var length: Int { count }

    override var bytes: UnsafeRawPointer { UnsafeRawPointer(start) }

    /// The hash a plain `NSData` of the same bytes has: equal data hashes alike whichever class holds it. The
    /// `NSData` borrows the bytes (no copy that would be freed without being wiped).
    override var hash: Int { NSData(bytesNoCopy: start, length: count, freeWhenDone: false).hash }

    override var classForCoder: AnyClass { NSData.self }
}
