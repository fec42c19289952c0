import KeychainCore
import KeychainCrypto

/// Reads the typed encoding through the engine's `BinaryReader`: every read checks the bytes left and throws
/// errSecDecode with a reason, whatever the input; a secret goes from the message straight into wiped memory.
struct WireDecoder {
    private var reader: BinaryReader

    /// What a message that ends early or says a length that does not fit is.
    static let damaged = KeychainError.decode.because("the message is shorter than its fields say")

    /// Runs `body` with a decoder over `bytes`, and requires every byte to be read.
    static func decode<T>(_ bytes: [UInt8], _ body: (inout WireDecoder) throws -> T) throws -> T {
        try bytes.withUnsafeBytes { raw in
            var decoder = WireDecoder(reader: BinaryReader(raw, damaged: damaged))
            let value = try body(&decoder)
            guard decoder.reader.isAtEnd else {
                throw KeychainError.decode.because("the message has \(decoder.reader.remaining) bytes after its end")
            }
            return value
        }
    }

    mutating func byte() throws -> UInt8 { try reader.byte() }

    mutating func bool() throws -> Bool {
        switch try reader.byte() {
        case 0: return false
        case 1: return true
        case let other: throw Self.invalid("a flag", other)
        }
    }

    mutating func uint32() throws -> UInt32 { try reader.uint32() }

    mutating func int() throws -> Int {
        let value = Int64(bitPattern: try reader.uint64())
        guard let integer = Int(exactly: value) else { throw Self.damaged }
        return integer
    }

    mutating func int32() throws -> Int32 { Int32(bitPattern: try reader.uint32()) }

    mutating func uint64() throws -> UInt64 { try reader.uint64() }

    mutating func double() throws -> Double { Double(bitPattern: try reader.uint64()) }

    /// A count of elements, each at least `minimumSize` bytes: a count the rest of the message cannot hold is
    /// refused before anything is allocated for it.
    mutating func count(minimumSize: Int = 1) throws -> Int {
        let count = Int(try reader.uint32())
        guard count <= reader.remaining / max(1, minimumSize) else { throw Self.damaged }
        return count
    }

    /// A field after its 32-bit length. Written out here rather than through the reader's generic
    /// `lengthPrefixed`, which the optimizer left unspecialized: a generic call per field cost more than the field.
    private mutating func field() throws -> UnsafeRawBufferPointer {
        try reader.take(Int(try reader.uint32()))
    }

    mutating func bytes() throws -> [UInt8] { Array(try field()) }

    mutating func string() throws -> String {
        let field = try field()
        // ASCII (attribute names, most values) is valid UTF-8 as it is: decoded without the general validation.
        let units = field.assumingMemoryBound(to: UInt8.self)
        var ascii = true
        for unit in units where unit >= 0x80 {
            ascii = false
            break
        }
        if ascii { return String(decoding: units, as: UTF8.self) }
        guard let text = String(validating: units, as: UTF8.self) else {
            throw KeychainError.decode.because("a text field of the message is not UTF-8")
        }
        return text
    }

    /// Secret bytes, copied from the message into wiped-on-free memory and nowhere else.
    mutating func secureBytes() throws -> SecureBytes {
        let field = try field()
        return SecureBytes(count: field.count) { target in
            guard let source = field.baseAddress, let destination = target.baseAddress else { return }
            destination.copyMemory(from: source, byteCount: field.count)
        }
    }

    mutating func secret() throws -> Secret { Secret(try secureBytes()) }

    mutating func optional<T>(_ read: (inout WireDecoder) throws -> T) throws -> T? {
        try bool() ? try read(&self) : nil
    }

    /// The most elements reserved ahead for a count read from the message: a count is checked against the bytes
    /// left, not against what its elements take in memory, which can be many times more.
    static let largestReservation = 1024

    mutating func array<T>(minimumSize: Int = 1, _ read: (inout WireDecoder) throws -> T) throws -> [T] {
        let count = try count(minimumSize: minimumSize)
        var values: [T] = []
        values.reserveCapacity(min(count, Self.largestReservation))
        for _ in 0..<count { values.append(try read(&self)) }
        return values
    }

    /// A value of a raw-string enum; an unknown one is errSecDecode naming what was read.
    mutating func raw<T: RawRepresentable>(_: T.Type, _ what: String) throws -> T where T.RawValue == String {
        let text = try string()
        guard let value = T(rawValue: text) else {
            throw KeychainError.decode.because("the message names an unknown \(what) (\(text.count) characters)")
        }
        return value
    }

    /// A value of a raw-string enum named in `table` (``names(of:)``): the field's bytes are compared with each
    /// name as they are, with no String made and no generic comparison (the synthesized `init(rawValue:)`).
    mutating func named<T>(_ table: [(value: T, name: [UInt8])], _ what: String) throws -> T {
        let field = try field()
        for entry in table where entry.name.count == field.count {
            // Both sides as raw buffers: a plain byte comparison, not the generic one over an array's elements.
            if entry.name.withUnsafeBytes({ $0.elementsEqual(field) }) { return entry.value }
        }
        let text = String(decoding: field, as: UTF8.self)
        throw KeychainError.decode.because("the message names an unknown \(what) (\(text.count) characters)")
    }

    /// Every case of `T` with its name's bytes, for ``named(_:_:)``.
    static func names<T: CaseIterable & RawRepresentable>(of _: T.Type) -> [(value: T, name: [UInt8])]
    where T.RawValue == String {
        T.allCases.map { ($0, Array($0.rawValue.utf8)) }
    }

    static let itemClassNames = names(of: ItemClass.self)
    static let accessibilityNames = names(of: Accessibility.self)

    mutating func itemClass() throws -> ItemClass { try named(Self.itemClassNames, "item class") }

    mutating func accessibility() throws -> Accessibility { try named(Self.accessibilityNames, "accessibility") }

    /// errSecDecode for a tag or flag byte out of range.
    static func invalid(_ what: String, _ byte: UInt8) -> KeychainError {
        KeychainError.decode.because("the message has \(what) of unknown value \(byte)")
    }
}
