/// One DER element: its tag, the bytes of its content, and the whole encoding.
package struct DERElement: Sendable {
    package let tag: UInt8
    package let content: ArraySlice<UInt8>
    package let encoding: ArraySlice<UInt8>
}

/// Reads consecutive DER elements (definite lengths, one-byte tags) from a byte slice, and writes them back.
/// Enough for distinguished names and integers; everything else is OpenSSL's job.
package struct DERReader {
    private var bytes: ArraySlice<UInt8>

    package init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    package var isAtEnd: Bool { bytes.isEmpty }

    /// The next element, or nil when the bytes are not well-formed DER.
    package mutating func next() -> DERElement? {
        let start = bytes.startIndex
        guard bytes.count >= 2 else { return nil }
        let tag = bytes[start]
        guard tag & 0x1F != 0x1F else { return nil }  // multi-byte tags never occur in names
        let first = bytes[start + 1]
        var length = 0
        var headerLength = 2
        if first < 0x80 {
            length = Int(first)
        } else {
            let count = Int(first & 0x7F)
            // DER forbids the indefinite form (0x80) and lengths that could have been shorter.
            guard count >= 1, count <= 4, bytes.count >= 2 + count else { return nil }
            for index in 0..<count { length = length << 8 | Int(bytes[start + 2 + index]) }
            guard length >= 0x80, count == 1 || bytes[start + 2] != 0 else { return nil }
            headerLength += count
        }
        guard bytes.count - headerLength >= length else { return nil }
        let contentStart = start + headerLength
        let end = contentStart + length
        let element = DERElement(tag: tag, content: bytes[contentStart..<end], encoding: bytes[start..<end])
        bytes = bytes[end...]
        return element
    }

    /// `tag`, the DER length of `content`, then `content`.
    package static func encode(tag: UInt8, content: [UInt8]) -> [UInt8] {
        var result = [tag]
        let length = content.count
        if length < 0x80 {
            result.append(UInt8(length))
        } else {
            var lengthBytes: [UInt8] = []
            var remaining = length
            while remaining > 0 {
                lengthBytes.insert(UInt8(remaining & 0xFF), at: 0)
                remaining >>= 8
            }
            result.append(0x80 | UInt8(lengthBytes.count))
            result += lengthBytes
        }
        return result + content
    }
}
