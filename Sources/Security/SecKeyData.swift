import Foundation

// `CFData` is NSData here. Bridging it to `Data` and back costs microseconds on Linux (a copy through Core
// Foundation each way), which a signature's cost would notice; the key functions read and make NSData directly.

extension NSData {
    /// Runs `body` over the bytes without bridging to `Data`.
    func withUnsafeRawBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: length == 0 ? nil : bytes, count: length))
    }

    /// A copy of the bytes as an array.
    var byteArray: [UInt8] { withUnsafeRawBytes { [UInt8]($0) } }

    /// NSData holding a copy of `bytes`.
    static func copying(_ bytes: [UInt8]) -> NSData { NSData(bytes: bytes, length: bytes.count) }

    /// NSData holding a copy of `bytes`.
    static func copying(_ bytes: UnsafeRawBufferPointer) -> NSData {
        NSData(bytes: bytes.baseAddress, length: bytes.count)
    }
}
