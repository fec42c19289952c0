extension Sequence<UInt8> {
    /// The bytes as lowercase hexadecimal, two digits each (for names and identifiers that are not secret).
    var hexadecimal: String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }, as: UTF8.self)
    }
}
