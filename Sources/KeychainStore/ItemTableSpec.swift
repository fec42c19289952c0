/// The shape of one item table as the store reads and writes it: fixed columns plus one keyed-digest column per
/// searchable attribute. The engine decides which columns exist and creates them through its frozen schema
/// history; this layer only names them in SQL.
package struct ItemTableSpec: Sendable {
    /// The table name (the class's raw name, e.g. "genp").
    package let name: String
    /// Digest columns, in order.
    package let digestColumns: [String]
    /// Room for the binding of a row with a few attributes, so building it rarely grows the buffer.
    static let typicalBindingSize = 256

    /// Each digest column's name as its index binding writes it (length byte, then UTF-8).
    private let bindingNames: [[UInt8]]

    package init(name: String, digestColumns: [String]) {
        self.name = name
        self.digestColumns = digestColumns
        bindingNames = digestColumns.map { [UInt8(truncatingIfNeeded: $0.utf8.count)] + Array($0.utf8) }
    }

    /// The index binding of a row with `digests` (one value or nil per digest column, in order): what an item's
    /// secret seal authenticates (item format 3). For each digest column in order that holds a value: its name
    /// (u8 length, UTF-8), then the value (u32 big-endian length, bytes). A column added later is NULL in older
    /// rows and leaves their binding as it was.
    package func indexBinding(_ digests: [[UInt8]?]) -> [UInt8] {
        var binding: [UInt8] = []
        binding.reserveCapacity(Self.typicalBindingSize)
        for (offset, value) in digests.enumerated() where offset < digestColumns.count {
            guard let value else { continue }
            value.withUnsafeBytes { appendBinding(column: offset, value: $0, to: &binding) }
        }
        return binding
    }

    /// Appends one digest column's part of the index binding: the same bytes whether the value comes from a row
    /// being written or straight from SQLite.
    func appendBinding(column offset: Int, value: UnsafeRawBufferPointer, to binding: inout [UInt8]) {
        binding.append(contentsOf: bindingNames[offset])
        withUnsafeBytes(of: UInt32(truncatingIfNeeded: value.count).bigEndian) { binding.append(contentsOf: $0) }
        binding.append(contentsOf: value)
    }

    /// Writes the same part as ``appendBinding(column:value:to:)`` into `scratch`: a select rebuilds every row's
    /// binding there and copies it out once, instead of growing an array three appends per column.
    func appendBinding(column offset: Int, value: UnsafeRawBufferPointer, to scratch: inout BindingScratch) {
        bindingNames[offset].withUnsafeBytes { scratch.append($0) }
        withUnsafeBytes(of: UInt32(truncatingIfNeeded: value.count).bigEndian) { scratch.append($0) }
        scratch.append(value)
    }
}

/// A reusable buffer a select writes each row's index binding into (digests only: nothing secret).
struct BindingScratch: ~Copyable {
    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    private(set) var count = 0

    init() {
        capacity = ItemTableSpec.typicalBindingSize
        base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 1)
    }

    deinit { base.deallocate() }

    mutating func removeAll() { count = 0 }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if count + bytes.count > capacity {
            let grown = max(capacity * 2, count + bytes.count)
            let larger = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 1)
            larger.copyMemory(from: base, byteCount: count)
            base.deallocate()
            base = larger
            capacity = grown
        }
        (base + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    /// The bytes written since the last ``removeAll()``, as an array.
    var bytes: [UInt8] { Array(UnsafeRawBufferPointer(start: base, count: count)) }
}
