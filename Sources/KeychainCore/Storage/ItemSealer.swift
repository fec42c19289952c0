import KeychainCrypto

/// Seals and opens one item: a random item key encrypts the attributes and the secret (AES-256-GCM) with
/// the table, item UUID, protection class and format version as additional data, so a ciphertext moved to
/// another row, class or version fails to open; the item key is wrapped (RFC 3394) by the class key. From format 3
/// the secret's additional data also holds the row's lookup digests, so a row whose digests were changed fails to
/// open its secret.
struct ItemSealer {
    /// Format 3: the secret's seal binds the row's digest columns (its index binding), so a lookup that matched
    /// on digests alone can trust them once the secret opens. Format 2: a constrained secret's key envelope is
    /// itself sealed under the item key, so it needs the class key as well as its factors. Format 1 kept the
    /// envelope in the clear. Older rows are still read, with the full check, and migrated.
    static let formatVersion: Int64 = 3

    /// The first format whose secret seal binds the row's index.
    static let indexBoundFormat: Int64 = 3

    /// The format of a Secure Enclave key's authorization, which is sealed outside any row (so it has no index)
    /// and kept in the key's blob: frozen, so keys made by earlier releases still open.
    static let enclaveAuthorizationFormat: Int64 = 2

    /// The additional-data part of each sealed column.
    typealias Part = KeyHierarchy.ItemPart

    let table: String
    let uuid: [UInt8]
    let protection: Accessibility
    let version: Int64
    /// The row's digest columns (``ItemTableSpec/indexBinding(_:)``), bound into the secret from format 3.
    var indexBinding: [UInt8] = []

    /// The additional data of the secret inside a constrained item's envelope, with its access control. It names
    /// format 1 whatever the row's format: an upgrade carries envelopes over unopened (it has no factor to open
    /// them with), and the row's format is bound by the seal around the envelope.
    func constrainedSecretAssociatedData(_ policy: AccessControlPolicy) -> [UInt8] {
        ItemSealer(table: table, uuid: uuid, protection: protection, version: 1).associatedData(.secret)
            + policy.encoded
    }

    /// The additional data of one part of the item: the table, UUID, protection class and format it belongs to.
    /// From format 3 the secret's also holds the row's index binding.
    func associatedData(_ part: Part) -> [UInt8] {
        // One allocation, written in place: every lookup builds this.
        let prefix = KeyHierarchy.itemAssociatedDataPrefix
        let protectionName = protection.rawValue
        let binding = part == .secret && version >= Self.indexBoundFormat ? indexBinding : []
        let count =
            prefix.utf8.count + 1 + table.utf8.count + 1 + uuid.count + protectionName.utf8.count + 1
            + MemoryLayout<Int64>.size + 1 + binding.count
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, written in
            guard let start = buffer.baseAddress else { return }
            var cursor = UnsafeMutableRawPointer(start)
            cursor = Self.write(prefix, at: cursor)
            cursor = Self.write(byte: 0, at: cursor)
            cursor = Self.write(table, at: cursor)
            cursor = Self.write(byte: 0, at: cursor)
            cursor = uuid.withUnsafeBytes { Self.write($0, at: cursor) }
            cursor = Self.write(protectionName, at: cursor)
            cursor = Self.write(byte: 0, at: cursor)
            cursor = withUnsafeBytes(of: version.bigEndian) { Self.write($0, at: cursor) }
            cursor = Self.write(byte: part.rawValue, at: cursor)
            cursor = binding.withUnsafeBytes { Self.write($0, at: cursor) }
            written = cursor - UnsafeMutableRawPointer(start)
        }
    }

    private static func write(_ bytes: UnsafeRawBufferPointer, at cursor: UnsafeMutableRawPointer)
        -> UnsafeMutableRawPointer
    {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return cursor }
        cursor.copyMemory(from: base, byteCount: bytes.count)
        return cursor + bytes.count
    }

    private static func write(byte: UInt8, at cursor: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        cursor.storeBytes(of: byte, as: UInt8.self)
        return cursor + 1
    }

    private static func write(_ text: String, at cursor: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        if let end = text.utf8.withContiguousStorageIfAvailable({ write(UnsafeRawBufferPointer($0), at: cursor) }) {
            return end
        }
        var cursor = cursor
        for byte in text.utf8 { cursor = write(byte: byte, at: cursor) }
        return cursor
    }

    /// Encrypts `attributes` and `secret` under `itemKey`, wrapped by `classKey` (an add makes the key; an update
    /// keeps the item's).
    func seal(
        attributes: [AttributeKey: AttributeValue], secret: [UInt8], itemKey: SecureBytes, classKey: AESKeyWrapper
    )
        throws -> (wrappedKey: [UInt8], metadata: [UInt8], secret: [UInt8])
    {
        var encoded = try AttributeCodec.encode(attributes)
        defer { wipe(&encoded) }
        let boxes = try AESGCM.seal(
            [(encoded, associatedData(.metadata)), (secret, associatedData(.secret))], key: itemKey)
        return (try classKey.wrap(itemKey), boxes[0], boxes[1])
    }

    /// Unwraps the item key. - Throws: `KeychainError.decode` when the row was altered or moved.
    func itemKey(wrapped: [UInt8], classKey: AESKeyWrapper) throws -> SecureBytes {
        do { return try classKey.unwrap(wrapped) } catch {
            throw KeychainError.decode.because("an item's key does not open with its class key (the row is damaged)")
        }
    }

    /// Decrypts the attributes.
    func openAttributes(_ sealed: [UInt8], itemKey: SecureBytes) throws -> [AttributeKey: AttributeValue] {
        let plain = try open(sealed, itemKey: itemKey, part: .metadata)
        return try plain.withUnsafeBytes { try AttributeCodec.decode($0) }
    }

    /// Decrypts the attributes, decoding only those in `wanted`.
    func openAttributes(_ sealed: [UInt8], itemKey: SecureBytes, only wanted: [AttributeKey]) throws
        -> [AttributeKey: AttributeValue]
    {
        let plain = try open(sealed, itemKey: itemKey, part: .metadata)
        return try plain.withUnsafeBytes { try AttributeCodec.decode($0, only: wanted) }
    }

    /// Decrypts the secret into wiped-on-free memory. `keyScheduleMayStay`: the item key's class key is kept in
    /// the process (``AESKeyWrapper/isKeptInProcess``), see ``AESGCM/open(_:key:authenticating:keyScheduleMayStay:)``.
    func openSecret(_ sealed: [UInt8], itemKey: SecureBytes, keyScheduleMayStay: Bool = false) throws -> SecureBytes {
        try open(sealed, itemKey: itemKey, part: .secret, keyScheduleMayStay: keyScheduleMayStay)
    }

    /// Seals a constrained secret's framed key envelope under the item key (format 2).
    func sealEnvelope(_ framed: [UInt8], itemKey: SecureBytes) throws -> [UInt8] {
        try AESGCM.seal(framed, key: itemKey, authenticating: associatedData(.constrainedEnvelope))
    }

    /// Opens what ``sealEnvelope(_:itemKey:)`` sealed.
    func openEnvelope(_ sealed: [UInt8], itemKey: SecureBytes) throws -> SecureBytes {
        try open(sealed, itemKey: itemKey, part: .constrainedEnvelope)
    }

    /// `sealed` (a part of this item) decrypted with `itemKey` and encrypted again under `newItemKey`, with the
    /// same additional data; the plaintext is never copied out of wiped memory.
    func resealed(_ sealed: [UInt8], part: Part, from itemKey: SecureBytes, to newItemKey: SecureBytes) throws
        -> [UInt8]
    {
        let plain = try open(sealed, itemKey: itemKey, part: part)
        return try plain.withUnsafeBytes { try AESGCM.seal($0, key: newItemKey, authenticating: associatedData(part)) }
    }

    /// The sealed attributes re-encrypted under `newItemKey`, and whether they hold an access control with
    /// constraints (the secret column is then a constraint envelope): decrypted once, nothing else decoded.
    func resealedAttributes(_ sealed: [UInt8], from itemKey: SecureBytes, to newItemKey: SecureBytes) throws
        -> (sealed: [UInt8], constrained: Bool)
    {
        let plain = try open(sealed, itemKey: itemKey, part: .metadata)
        return try plain.withUnsafeBytes { bytes in
            let constrained =
                try AttributeCodec.decode(bytes, only: [AccessControlPolicy.attributeKey])[
                    AccessControlPolicy.attributeKey] != nil
            return (try AESGCM.seal(bytes, key: newItemKey, authenticating: associatedData(.metadata)), constrained)
        }
    }

    private func open(_ sealed: [UInt8], itemKey: SecureBytes, part: Part, keyScheduleMayStay: Bool = false) throws
        -> SecureBytes
    {
        do {
            return try AESGCM.open(
                sealed, key: itemKey, authenticating: associatedData(part), keyScheduleMayStay: keyScheduleMayStay)
        } catch {
            throw KeychainError.decode.because("an item's ciphertext does not authenticate (the row is damaged)")
        }
    }
}
