@_implementationOnly import COpenSSL

/// OpenSSL's `i2d_…` convention, once: ask for the length, then encode into a buffer of that size.
enum OpenSSLEncoding {
    static func der(_ encode: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32) -> [UInt8]? {
        let length = encode(nil)
        guard length > 0 else { return nil }
        var result = [UInt8](repeating: 0, count: Int(length))
        let written = result.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return encode(&cursor)
        }
        return written == length ? result : nil
    }

    /// The bytes of an ASN1_STRING (octet strings, IA5 strings).
    static func bytes(of string: UnsafePointer<ASN1_STRING>?) -> [UInt8]? {
        guard let string, let data = ASN1_STRING_get0_data(string) else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: Int(ASN1_STRING_length(string))))
    }

    /// An ASN1_STRING of any string type as UTF-8 text, or nil when it does not convert.
    static func text(of string: UnsafePointer<ASN1_STRING>?) -> String? {
        guard let string else { return nil }
        var output: UnsafeMutablePointer<UInt8>?
        let length = ASN1_STRING_to_UTF8(&output, string)
        guard length >= 0, let output else { return nil }
        defer { kossl_free(output) }
        return String(decoding: UnsafeBufferPointer(start: output, count: Int(length)), as: UTF8.self)
    }

    /// Empties the calling thread's error queue so that a later, unrelated operation does not report it.
    static func clearErrors() { ERR_clear_error() }
}
