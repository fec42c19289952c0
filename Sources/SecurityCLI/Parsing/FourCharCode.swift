/// Apple's four-character codes (creator, type, protocol, authentication type): four ASCII bytes, read as a
/// big-endian 32-bit number where a number is stored.
enum FourCharCode {
    /// The code for `text`: one to four printable ASCII characters, padded on the right with spaces as Apple's
    /// own codes are ("ftp " , "ssh "). Nil for anything else.
    static func code(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard (1...4).contains(bytes.count), bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
        return text + String(repeating: " ", count: 4 - bytes.count)
    }

    /// The code as the number Apple stores for `kSecAttrCreator` and `kSecAttrType`.
    static func number(_ text: String) -> Int64? {
        guard let code = code(text) else { return nil }
        return code.utf8.reduce(Int64(0)) { $0 << 8 | Int64($1) }
    }

    /// `kSecAttrProtocol` values for names longer than a code (`https` is stored as "htps").
    static let protocolAliases: [String: String] = [
        "https": "htps", "imaps": "imps", "ldaps": "ldps", "pop3s": "pops", "nntps": "ntps", "telnet": "teln",
        "telnets": "tels", "ftpaccount": "ftpa", "appletalk": "atlk", "socks": "sox ", "httpproxy": "htpx",
        "httpsproxy": "htsx", "ftpproxy": "ftpx", "rtspproxy": "rtsx", "cvspserver": "cvsp",
    ]

    /// `kSecAttrAuthenticationType` values by name.
    static let authenticationTypeAliases: [String: String] = [
        "default": "dflt", "msn": "msna", "dpa": "dpaa", "rpa": "rpaa", "httpbasic": "http",
        "httpdigest": "httd", "htmlform": "form",
    ]

    /// A protocol code (`-r`): a known scheme name or a code of up to four characters.
    static func protocolCode(_ text: String) -> String? {
        protocolAliases[text.lowercased()] ?? code(text)
    }

    /// An authentication type code (`-t`): a known name or a code of up to four characters.
    static func authenticationTypeCode(_ text: String) -> String? {
        authenticationTypeAliases[text.lowercased()] ?? code(text)
    }
}
