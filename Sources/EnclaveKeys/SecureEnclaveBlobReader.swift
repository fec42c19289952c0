import KeychainCore

/// Reads the fields of a SecureEnclave key's stored form; every shortfall is ``EnclaveError`` -50 (errSecParam),
/// what Apple's enclave reports for bytes that are no key of its own.
struct SecureEnclaveBlobReader {
    private let bytes: [UInt8]
    private(set) var offset: Int

    init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    static let invalid = EnclaveError.invalidBlob

    /// The next `count` bytes.
    mutating func take(_ count: Int) throws -> [UInt8] {
        guard count >= 0, bytes.count - offset >= count else { throw Self.invalid }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    /// A big-endian unsigned integer of `count` bytes.
    mutating func integer(_ count: Int) throws -> UInt64 {
        try take(count).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// An access control: `u8 len ‖ protection class ‖ u64 flags`.
    mutating func policy() throws -> AccessControlPolicy {
        let length = Int(try integer(1))
        guard let accessibility = Accessibility(rawValue: String(decoding: try take(length), as: UTF8.self)) else {
            throw Self.invalid
        }
        let flags = AccessControlFlags(rawValue: UInt(try integer(8)))
        return AccessControlPolicy(accessibility: accessibility, flags: flags)
    }

    /// What is left.
    var rest: [UInt8] { Array(bytes[offset...]) }

    /// The bytes already read.
    var consumed: [UInt8] { Array(bytes[..<offset]) }

    static func bigEndian(_ value: UInt64, bytes count: Int) -> [UInt8] {
        (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    /// The stored form of an access control, as ``policy()`` reads it.
    static func encoded(_ policy: AccessControlPolicy) -> [UInt8] {
        let protection = Array(policy.accessibility.rawValue.utf8)
        return [UInt8(protection.count)] + protection + bigEndian(UInt64(policy.flags.rawValue), bytes: 8)
    }
}
