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
    /// A bound on the iterations a file may ask for, so a crafted file cannot make a restore spin for hours.
    static let maximumIterations = 50_000_000

    /// Encrypts `contents` under `password` stretched over `iterations` rounds.
    static func seal(_ contents: BackupContents, password: SecureBytes, iterations: Int) throws -> [UInt8] {
        let salt = try SystemRandom.bytes(saltSize)
        let keys = try Keys(password: password, salt: salt, iterations: iterations)
        var header = magic
        append(formatVersion, to: &header)
        header.append(kdfIdentifier)
        append(UInt32(iterations), to: &header)
        header += salt
        header += try keys.check.authenticate(message: header)
        header += try SHA256.hash(header).prefix(checksumSize)
        var payload = encodePayload(contents)
        defer { wipe(&payload) }
        return header + (try AESGCM.seal(payload, key: keys.payload, authenticating: header))
    }

    /// Checks and decrypts a backup file.
    /// - Throws: `errSecAuthFailed` for a wrong password; `errSecDecode` for anything that is not an intact
    ///   backup of this format (truncated, altered, garbage, or of an unknown version).
    static func open(_ file: [UInt8], password: SecureBytes) throws -> BackupContents {
        guard file.count >= headerSize + AESGCM.overhead else {
            throw KeychainError.decode.because(
                file.starts(with: magic) ? "the backup file is truncated" : "the file is not a keychain backup")
        }
        guard file.starts(with: magic) else { throw KeychainError.decode.because("the file is not a keychain backup") }
        let header = Array(file[0..<headerSize])
        let checked = headerSize - checksumSize
        guard try SHA256.hash(Array(header[0..<checked])).prefix(checksumSize).elementsEqual(header[checked...]) else {
            throw KeychainError.decode.because("the backup file's header is damaged")
        }
        let version = UInt16(header[8]) << 8 | UInt16(header[9])
        guard version == formatVersion, header[10] == kdfIdentifier else {
            throw KeychainError.decode.because("the backup is of format \(version), which this version cannot read")
        }
        let iterations = header[11..<15].reduce(0) { $0 << 8 | Int($1) }
        guard (1...maximumIterations).contains(iterations) else {
            throw KeychainError.decode.because("the backup asks for \(iterations) KDF iterations")
        }
        let saltEnd = 15 + saltSize
        let keys = try Keys(password: password, salt: Array(header[15..<saltEnd]), iterations: iterations)
        // Both sides went through PBKDF2, so the check makes guessing no cheaper than trying the payload.
        let expected = SecureBytes(try keys.check.authenticate(message: Array(header[0..<saltEnd])))
        guard expected.constantTimeEquals(SecureBytes(header[saltEnd..<saltEnd + checkSize])) else {
            throw KeychainError.authFailed.because("the backup password is not correct")
        }
        let payload: SecureBytes
        do {
            payload = try AESGCM.open(Array(file[headerSize...]), key: keys.payload, authenticating: header)
        } catch {
            throw KeychainError.decode.because("the backup's contents do not authenticate (the file is damaged)")
        }
        return try payload.withUnsafeBytes { try decodePayload($0) }
    }

    /// The payload key and the password-check key, both from one PBKDF2 stretch of the password.
    private struct Keys {
        let payload: SecureBytes
        let check: HMACSHA256

        init(password: SecureBytes, salt: [UInt8], iterations: Int) throws {
            let stretched = try KeyDerivation.pbkdf2SHA256(password: password, salt: salt, iterations: iterations)
            let domain = Array("keychain backup".utf8)
            payload = try KeyDerivation.hkdfSHA256(key: stretched, salt: domain, info: Array("payload key v1".utf8))
            check = try HMACSHA256(
                key: try KeyDerivation.hkdfSHA256(key: stretched, salt: domain, info: Array("password check v1".utf8)))
        }
    }

    // MARK: - Payload

    /// `excluded:u32 count:u32`, then per item `class:u8-len uuid:u8-len pdmn:u8-len attributes:u32-len
    /// secret:u32-len`, big-endian; attributes in ``AttributeCodec``'s typed encoding.
    /// That encoding is part of this format: a change to it needs a new ``formatVersion``.
    private static func encodePayload(_ contents: BackupContents) -> [UInt8] {
        let encoded = contents.entries.map { AttributeCodec.encode($0.attributes) }
        var out: [UInt8] = []
        // One allocation: growing would leave copies of secrets in freed memory that nothing wipes.
        out.reserveCapacity(8 + zip(contents.entries, encoded).reduce(0) { total, pair in
            total + 3 + pair.0.itemClass.rawValue.utf8.count + pair.0.uuid.count
                + pair.0.protection.rawValue.utf8.count + 8 + pair.1.count + pair.0.secret.count
        })
        append(UInt32(contents.excludedCount), to: &out)
        append(UInt32(contents.entries.count), to: &out)
        for (entry, var attributes) in zip(contents.entries, encoded) {
            for field in [Array(entry.itemClass.rawValue.utf8), entry.uuid, Array(entry.protection.rawValue.utf8)] {
                out.append(UInt8(field.count))
                out += field
            }
            append(UInt32(attributes.count), to: &out)
            out += attributes
            wipe(&attributes)
            append(UInt32(entry.secret.count), to: &out)
            entry.secret.withUnsafeBytes { out += $0 }
        }
        return out
    }

    static func decodePayload(_ bytes: UnsafeRawBufferPointer) throws -> BackupContents {
        var reader = PayloadReader(bytes: bytes)
        var contents = BackupContents()
        contents.excludedCount = Int(try reader.integer(4))
        let count = Int(try reader.integer(4))
        for _ in 0..<count {
            let className = String(decoding: try reader.field(lengthBytes: 1), as: UTF8.self)
            let uuid = Array(try reader.field(lengthBytes: 1))
            let protectionName = String(decoding: try reader.field(lengthBytes: 1), as: UTF8.self)
            guard let itemClass = ItemClass(rawValue: className), uuid.count == 16,
                let protection = Accessibility(rawValue: protectionName)
            else { throw KeychainError.decode.because("the backup holds a malformed item") }
            let attributes = try AttributeCodec.decode(try reader.field(lengthBytes: 4))
            let secret = SecureBytes(try reader.field(lengthBytes: 4))
            contents.entries.append(BackupEntry(
                itemClass: itemClass, uuid: uuid, protection: protection, attributes: attributes, secret: secret))
        }
        guard reader.isAtEnd else { throw KeychainError.decode.because("the backup's contents are malformed") }
        return contents
    }

    private struct PayloadReader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }

        mutating func take(_ count: Int) throws -> UnsafeRawBufferPointer {
            guard count <= bytes.count - offset else {
                throw KeychainError.decode.because("the backup's contents are malformed")
            }
            defer { offset += count }
            return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
        }

        mutating func integer(_ size: Int) throws -> UInt64 {
            try take(size).reduce(0) { $0 << 8 | UInt64($1) }
        }

        mutating func field(lengthBytes: Int) throws -> UnsafeRawBufferPointer {
            try take(Int(try integer(lengthBytes)))
        }
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { out += $0 }
    }
}
