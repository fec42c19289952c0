import KeychainCrypto

/// One item as a backup holds it: everything needed to store it again under another device's keys.
struct BackupEntry: Sendable {
    let itemClass: ItemClass
    /// The 16-byte UUID of the item's persistent reference.
    let uuid: [UInt8]
    let protection: Accessibility
    /// Every attribute with its type, including agrp, sync, cdat and mdat.
    let attributes: [AttributeKey: AttributeValue]
    let secret: SecureBytes
}

/// What a backup file holds once opened.
struct BackupContents: Sendable {
    var entries: [BackupEntry] = []
    /// Items that were left on the device when the backup was made (recorded so a restore can say so).
    var excludedCount = 0
    /// Items that could not be read when the backup was made (not recorded in the file).
    var damagedCount = 0
}

/// The backup file format (docs/storage.md, "Backups"): a header with the KDF parameters, a password check and
/// a checksum, then the payload sealed with AES-256-GCM under a key stretched from the backup password, with
/// the whole header as additional data.
enum BackupArchive {
    static let magic = Array("KCBACKUP".utf8)
    static let formatVersion: UInt16 = 1
    /// PBKDF2-HMAC-SHA-256.
    static let kdfIdentifier: UInt8 = 1
    static let saltSize = 16
    private static let checkSize = 32
    private static let checksumSize = 16
    /// magic, version, KDF, iterations, salt, password check, checksum.
    static let headerSize = 8 + 2 + 1 + 4 + saltSize + checkSize + checksumSize
    /// The fewest iterations a backup is written with, whatever the passcode's target: the file leaves the
    /// machine and is attacked offline (OWASP's 2023 figure for PBKDF2-HMAC-SHA-256; about 0.2 s here).
    static let minimumIterations = 600_000
    /// The most a file may ask for, checked before any derivation, so a forged header cannot make a restore spin
    /// (Apple's backup keybags use 10 million; about 3 s here). Backups are written within it.
    static let maximumIterations = 10_000_000
    /// The most items a backup may say it left out: a count beyond any keychain (each item is a database row of
    /// over a hundred bytes), so a larger one is damage, not a number to print.
    static let maximumExcludedCount = 10_000_000

    /// Encrypts `contents` under `password` stretched over `iterations` rounds.
    static func seal(_ contents: BackupContents, password: SecureBytes, iterations: Int) throws -> [UInt8] {
        var payload = try encodePayload(contents)
        defer { wipe(&payload) }
        return try sealPayload(payload, password: password, iterations: iterations)
    }

    /// Encrypts payload bytes as they are, well-formed or not: what ``seal(_:password:iterations:)`` does once it
    /// has encoded the contents, and how tests make the files a forger could.
    static func sealPayload(_ payload: [UInt8], password: SecureBytes, iterations: Int) throws -> [UInt8] {
        guard let rounds = UInt32(exactly: iterations), (1...maximumIterations).contains(iterations) else {
            throw KeychainError.param.because("a backup cannot use \(iterations) KDF iterations")
        }
        let salt = try SystemRandom.bytes(saltSize)
        let keys = try Keys(password: password, salt: salt, iterations: iterations)
        var writer = BinaryWriter(capacity: headerSize)
        writer.append(contentsOf: magic)
        writer.append(integer: formatVersion)
        writer.append(kdfIdentifier)
        writer.append(integer: rounds)
        writer.append(contentsOf: salt)
        writer.append(contentsOf: try keys.check.authenticate(message: writer.bytes))
        writer.append(contentsOf: try SHA256.hash(writer.bytes).prefix(checksumSize))
        let header = writer.bytes
        return header + (try AESGCM.seal(payload, key: keys.payload, authenticating: header))
    }

    /// Checks and decrypts a backup file.
    /// - Throws: `errSecAuthFailed` for a wrong password; `errSecDecode` for anything that is not an intact
    ///   backup of this format (truncated, altered, garbage, or of an unknown version).
    static func open(_ file: [UInt8], password: SecureBytes) throws -> BackupContents {
        try openPayload(file, password: password).withUnsafeBytes { try decodePayload($0) }
    }

    /// Checks and decrypts a backup file, leaving its payload undecoded (``decodePayload(_:each:)``).
    /// - Throws: as ``open(_:password:)``.
    static func openPayload(_ file: [UInt8], password: SecureBytes) throws -> SecureBytes {
        guard file.count >= headerSize + AESGCM.overhead else {
            throw KeychainError.decode.because(
                file.starts(with: magic)
                    ? KeychainError.Reason("the backup file is truncated")
                    : KeychainError.Reason("the file is not a keychain backup"))
        }
        guard file.starts(with: magic) else { throw KeychainError.decode.because("the file is not a keychain backup") }
        let header = Array(file[0..<headerSize])
        let checked = headerSize - checksumSize
        guard try SHA256.hash(Array(header[0..<checked])).prefix(checksumSize).elementsEqual(header[checked...]) else {
            throw KeychainError.decode.because("the backup file's header is damaged")
        }
        let (version, kdf, iterations) = try BinaryReader.reading(
            header, damaged: KeychainError.decode.because("the backup file's header is damaged")
        ) { reader in
            _ = try reader.take(magic.count)
            return (try reader.integer(UInt16.self), try reader.byte(), Int(try reader.integer(UInt32.self)))
        }
        guard version == formatVersion else {
            throw KeychainError.decode.because("the backup is of format \(version), which this version cannot read")
        }
        guard kdf == kdfIdentifier else {
            throw KeychainError.decode.because(
                "the backup's key derivation is KDF \(kdf), which this version does not know (it knows KDF 1, "
                    + "PBKDF2-HMAC-SHA-256)")
        }
        // Older backups were written with as few as 1,000: read, but never more than a backup is written with.
        guard (1...maximumIterations).contains(iterations) else {
            throw KeychainError.decode.because(
                "the backup file is damaged: it asks for \(iterations) KDF iterations, and backups use 1 to "
                    + "\(maximumIterations)")
        }
        let saltEnd = 15 + saltSize
        let keys = try Keys(password: password, salt: Array(header[15..<saltEnd]), iterations: iterations)
        // Both sides went through PBKDF2, so the check makes guessing no cheaper than trying the payload.
        let expected = SecureBytes(try keys.check.authenticate(message: Array(header[0..<saltEnd])))
        guard expected.constantTimeEquals(SecureBytes(header[saltEnd..<saltEnd + checkSize])) else {
            throw KeychainError.authFailed.because("the backup password is not correct")
        }
        do {
            return try AESGCM.open(Array(file[headerSize...]), key: keys.payload, authenticating: header)
        } catch {
            throw KeychainError.decode.because("the backup's contents do not authenticate (the file is damaged)")
        }
    }

    /// The payload key and the password-check key, both from one PBKDF2 stretch of the password.
    private struct Keys {
        let payload: SecureBytes
        let check: HMACSHA256

        init(password: SecureBytes, salt: [UInt8], iterations: Int) throws {
            let stretched = try KeyDerivation.pbkdf2SHA256(password: password, salt: salt, iterations: iterations)
            let domain = Array(KeyHierarchy.backupSalt.utf8)
            payload = try KeyDerivation.hkdfSHA256(
                key: stretched, salt: domain, info: Array(KeyHierarchy.backupPayloadKey.utf8))
            check = try HMACSHA256(
                key: try KeyDerivation.hkdfSHA256(
                    key: stretched, salt: domain, info: Array(KeyHierarchy.backupPasswordCheck.utf8)))
        }
    }

    // MARK: - Payload

    /// `excluded:u32 count:u32`, then per item `class:u8-len uuid:u8-len pdmn:u8-len attributes:u32-len
    /// secret:u32-len`, big-endian; attributes in ``AttributeCodec``'s typed encoding.
    /// That encoding is part of this format: a change to it needs a new ``formatVersion``.
    private static func encodePayload(_ contents: BackupContents) throws -> [UInt8] {
        var encoded = try contents.entries.map { try AttributeCodec.encode($0.attributes) }
        defer { for index in encoded.indices { wipe(&encoded[index]) } }
        // One allocation: growing would leave copies of secrets in freed memory that nothing wipes.
        var writer = BinaryWriter(
            capacity: 8
                + zip(contents.entries, encoded).reduce(0) { total, pair in
                    total + 3 + pair.0.itemClass.rawValue.utf8.count + pair.0.uuid.count
                        + pair.0.protection.rawValue.utf8.count + 8 + pair.1.count + pair.0.secret.count
                })
        let tooLong = KeychainError.param.because("an item is too large for a backup")
        guard let excluded = UInt32(exactly: contents.excludedCount),
            let count = UInt32(exactly: contents.entries.count)
        else { throw tooLong }
        writer.append(integer: excluded)
        writer.append(integer: count)
        for (entry, attributes) in zip(contents.entries, encoded) {
            for field in [Array(entry.itemClass.rawValue.utf8), entry.uuid, Array(entry.protection.rawValue.utf8)] {
                try writer.appendLengthPrefixed(field, as: UInt8.self, tooLong: tooLong)
            }
            try writer.appendLengthPrefixed(attributes, as: UInt32.self, tooLong: tooLong)
            try entry.secret.withUnsafeBytes { try writer.appendLengthPrefixed($0, as: UInt32.self, tooLong: tooLong) }
        }
        return writer.bytes
    }

    /// The fewest bytes an entry takes: the shortest class name (4) and protection class (2), the UUID, and
    /// empty attributes and secret, with their length prefixes.
    static let smallestEntrySize = 1 + 4 + 1 + 16 + 1 + 2 + 4 + 4

    /// Decodes a whole payload into memory: for callers that hold every entry anyway (the fuzz targets, tests).
    static func decodePayload(_ bytes: UnsafeRawBufferPointer) throws -> BackupContents {
        var entries: [BackupEntry] = []
        let excluded = try decodePayload(bytes) { entries.append($0) }
        return BackupContents(entries: entries, excludedCount: excluded)
    }

    /// Decodes a payload one entry at a time, handing each to `each` before the next is read, so that a restore
    /// refuses a bad entry before decoding the rest: a forged file cannot make it hold millions of entries first.
    /// - Returns: the number of items the backup says it left out.
    /// - Throws: `errSecDecode` for a malformed payload, or a count more than its bytes could hold; what `each`
    ///   throws.
    static func decodePayload(_ bytes: UnsafeRawBufferPointer, each: (BackupEntry) throws -> Void) throws -> Int {
        var reader = BinaryReader(bytes, damaged: KeychainError.decode.because("the backup's contents are malformed"))
        let excludedCount = Int(try reader.integer(UInt32.self))
        guard excludedCount <= maximumExcludedCount else {
            throw KeychainError.decode.because(
                "the backup's contents are damaged: they say \(excludedCount) items were left out, more than "
                    + "\(maximumExcludedCount)")
        }
        let count = Int(try reader.integer(UInt32.self))
        guard count <= reader.remaining / smallestEntrySize else {
            throw KeychainError.decode.because(
                "the backup's contents are damaged: they say they hold \(count) items, more than their "
                    + "\(reader.remaining) bytes can")
        }
        for _ in 0..<count {
            let className = String(decoding: try reader.lengthPrefixed(UInt8.self), as: UTF8.self)
            let uuid = Array(try reader.lengthPrefixed(UInt8.self))
            let protectionName = String(decoding: try reader.lengthPrefixed(UInt8.self), as: UTF8.self)
            guard let itemClass = ItemClass(rawValue: className), uuid.count == 16,
                let protection = Accessibility(rawValue: protectionName)
            else { throw KeychainError.decode.because("the backup holds a malformed item") }
            let attributes = try AttributeCodec.decode(try reader.lengthPrefixed(UInt32.self))
            let secret = SecureBytes(try reader.lengthPrefixed(UInt32.self))
            try each(
                BackupEntry(
                    itemClass: itemClass, uuid: uuid, protection: protection, attributes: attributes, secret: secret))
        }
        try reader.expectEnd()
        return excludedCount
    }
}
