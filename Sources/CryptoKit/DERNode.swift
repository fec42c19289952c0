/// One element of a DER document, read with the rules and errors of Apple's CryptoKit: the whole tree is read
/// first (lengths in their shortest form, nothing truncated, nothing after the root), then the caller checks its
/// shape. OpenSSL's readers accept BER forms (long-form lengths with leading zeros) that DER forbids.
struct DERNode {
    static let sequence: UInt8 = 0x30
    static let integer: UInt8 = 0x02
    static let bitString: UInt8 = 0x03
    static let octetString: UInt8 = 0x04
    static let objectIdentifier: UInt8 = 0x06

    /// Apple's reader refuses documents nested deeper than this.
    private static let maximumDepth = 10

    let tag: UInt8
    /// The content octets of a primitive element.
    let content: ArraySlice<UInt8>
    /// The elements inside a constructed element; nil for a primitive one.
    let children: [DERNode]?

    /// Reads `bytes` as exactly one DER element.
    static func parse(_ bytes: [UInt8]) throws -> DERNode {
        var rest = bytes[...]
        let node = try read(&rest, depth: 1)
        guard rest.isEmpty else { throw CryptoKitASN1Error.invalidASN1Object }
        return node
    }

    private static func read(_ data: inout ArraySlice<UInt8>, depth: Int) throws -> DERNode {
        guard depth <= maximumDepth else { throw CryptoKitASN1Error.invalidASN1Object }
        guard let tag = data.popFirst() else { throw CryptoKitASN1Error.truncatedASN1Field }
        // Tag numbers of 31 and above (the multi-octet form) are never used by key documents.
        guard tag & 0x1F != 0x1F else { throw CryptoKitASN1Error.invalidFieldIdentifier }
        let length = try readLength(&data)
        guard data.count >= length else { throw CryptoKitASN1Error.truncatedASN1Field }
        var content = data.prefix(length)
        data = data.dropFirst(length)
        guard tag & 0x20 != 0 else { return DERNode(tag: tag, content: content, children: nil) }
        var children: [DERNode] = []
        while !content.isEmpty { children.append(try read(&content, depth: depth + 1)) }
        return DERNode(tag: tag, content: [], children: children)
    }

    private static func readLength(_ data: inout ArraySlice<UInt8>) throws -> Int {
        guard let first = data.popFirst() else { throw CryptoKitASN1Error.truncatedASN1Field }
        guard first & 0x80 != 0 else { return Int(first) }
        // 0x80 alone is BER's indefinite length.
        let octetCount = Int(first & 0x7F)
        guard octetCount > 0 else { throw CryptoKitASN1Error.unsupportedFieldLength }
        guard data.count >= octetCount else { throw CryptoKitASN1Error.truncatedASN1Field }
        let octets = data.prefix(octetCount)
        data = data.dropFirst(octetCount)
        guard octetCount <= 4 else { throw CryptoKitASN1Error.invalidASN1Object }
        let length = octets.reduce(0) { $0 << 8 | Int($1) }
        // DER: the long form only for lengths above 127, in as few octets as the length needs.
        guard length > 0x7F, octets.first != 0 else { throw CryptoKitASN1Error.unsupportedFieldLength }
        return length
    }

    /// The children of a constructed element with `tag`.
    func elements(_ tag: UInt8) throws -> [DERNode] {
        guard self.tag == tag, let children else { throw CryptoKitASN1Error.unexpectedFieldType }
        return children
    }

    /// The content of a primitive element with `tag`.
    func primitive(_ tag: UInt8) throws -> ArraySlice<UInt8> {
        guard self.tag == tag, children == nil else { throw CryptoKitASN1Error.unexpectedFieldType }
        return content
    }

    /// The magnitude of a non-negative INTEGER in its minimal encoding (a leading zero only before a high bit).
    func unsignedInteger() throws -> ArraySlice<UInt8> {
        let bytes = try primitive(Self.integer)
        guard let first = bytes.first else { throw CryptoKitASN1Error.invalidASN1IntegerEncoding }
        if let second = bytes.dropFirst().first,
            (first == 0x00 && second & 0x80 == 0) || (first == 0xFF && second & 0x80 != 0)
        {
            throw CryptoKitASN1Error.invalidASN1IntegerEncoding
        }
        guard first & 0x80 == 0 else { throw CryptoKitASN1Error.invalidASN1IntegerEncoding }
        return first == 0 && bytes.count > 1 ? bytes.dropFirst() : bytes
    }
}

/// Element by element through a SEQUENCE's children; a missing element or one left over is malformed.
struct DERSequenceReader {
    private var remaining: ArraySlice<DERNode>

    init(_ node: DERNode) throws { remaining = try node.elements(DERNode.sequence)[...] }

    mutating func next() throws -> DERNode {
        guard let node = remaining.popFirst() else { throw CryptoKitASN1Error.invalidASN1Object }
        return node
    }

    /// The next element when it has `tag`; nil (and nothing read) otherwise.
    mutating func optional(_ tag: UInt8) -> DERNode? {
        guard remaining.first?.tag == tag else { return nil }
        return remaining.popFirst()
    }

    func finish() throws { guard remaining.isEmpty else { throw CryptoKitASN1Error.invalidASN1Object } }
}
