/// Named text fields: the payload of the daemon's own answers (``DaemonStatus``, the peer identity), readable by
/// any client without the engine's codec. A count, then for each field its name and its value, each
/// length-prefixed UTF-8.
package struct FieldList: Hashable, Sendable {
    package private(set) var fields: [(name: String, value: String)] = []

    package init(_ fields: [(String, String)] = []) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
    }

    package mutating func append(_ name: String, _ value: String) { fields.append((name, value)) }

    /// The first value named `name`.
    package subscript(name: String) -> String? { fields.first { $0.name == name }?.value }

    package func encoded() -> [UInt8] {
        var writer = ByteWriter()
        writer.uint16(UInt16(truncatingIfNeeded: min(fields.count, Int(UInt16.max))))
        for field in fields.prefix(Int(UInt16.max)) {
            writer.lengthPrefixed(Array(field.name.utf8))
            writer.lengthPrefixed(Array(field.value.utf8))
        }
        return writer.bytes
    }

    /// Reads a field list; trailing bytes or a short field are an error.
    package static func decode(_ bytes: [UInt8]) throws(ByteReader.Shortfall) -> FieldList {
        var reader = ByteReader(bytes)
        let count = try reader.uint16(reading: "the field count")
        var list = FieldList()
        for _ in 0..<count {
            let name = String(decoding: try reader.lengthPrefixed(reading: "a field name"), as: UTF8.self)
            let value = String(decoding: try reader.lengthPrefixed(reading: "a field value"), as: UTF8.self)
            list.append(name, value)
        }
        guard reader.isAtEnd else { throw ByteReader.Shortfall(reading: "the end of the field list") }
        return list
    }

    package static func == (left: FieldList, right: FieldList) -> Bool {
        left.fields.elementsEqual(right.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    package func hash(into hasher: inout Hasher) {
        for field in fields {
            hasher.combine(field.name)
            hasher.combine(field.value)
        }
    }
}
