extension SecureBytes {
    /// Decodes padded standard Base64 (RFC 4648, as `Data.base64EncodedString()` writes it) straight into wiped
    /// memory, so that a secret a file keeps as text leaves no decoded copy behind. Nil for anything else.
    package convenience init?(base64Encoded text: String) {
        let characters = text.utf8
        guard characters.count % 4 == 0 else { return nil }
        let padding = characters.reversed().prefix(2).prefix { $0 == UInt8(ascii: "=") }.count
        let digits = characters.count - padding
        var valid = true
        self.init(count: characters.count / 4 * 3 - padding) { output in
            var accumulator: UInt32 = 0
            var bits = 0
            var written = 0
            for character in characters.prefix(digits) {
                guard let value = Self.base64Value(of: character) else {
                    valid = false
                    return
                }
                accumulator = accumulator << 6 | value
                bits += 6
                if bits >= 8 {
                    bits -= 8
                    output[written] = UInt8(truncatingIfNeeded: accumulator >> bits)
                    written += 1
                }
            }
        }
        // The buffer is wiped when this instance goes.
        if !valid { return nil }
    }

    private static func base64Value(of character: UInt8) -> UInt32? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt32(character - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt32(character - UInt8(ascii: "a")) + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(character - UInt8(ascii: "0")) + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
