import KeychainCrypto

/// The decoders of stored and received bytes, reachable by the fuzz targets (Sources/KeychainFuzz) without
/// making their types public. Each takes untrusted bytes and must answer with a `KeychainError`, never a trap.
package enum FuzzEntryPoints {
    /// Decodes an item's attribute bytes (the sealed `meta` column's plaintext), in full and in part.
    package static func decodeAttributes(_ bytes: [UInt8]) throws -> [AttributeKey: AttributeValue] {
        _ = try bytes.withUnsafeBytes {
            try AttributeCodec.decode($0, only: [.account, .service, .creationDate, .modificationDate])
        }
        return try bytes.withUnsafeBytes { try AttributeCodec.decode($0) }
    }

    /// Encodes attributes as the `meta` column's plaintext.
    package static func encodeAttributes(_ attributes: [AttributeKey: AttributeValue]) throws -> [UInt8] {
        try AttributeCodec.encode(attributes)
    }

    /// Splits a constrained item's secret column; when it is in the binary format, returns that format written
    /// again from what was read (nil for the JSON format, which is no longer written).
    package static func reframeConstraintEnvelope(_ column: [UInt8]) throws -> [UInt8]? {
        let (envelope, sealed) = try ConstraintEnvelope.unframing(column)
        guard column.first == ConstraintEnvelope.binaryMarker else {
            _ = try envelope.jsonFraming(sealed)
            return nil
        }
        return try envelope.binaryFraming(sealed)
    }

    /// Decodes a keybag file and encodes it again.
    package static func reencodeKeybag(_ bytes: [UInt8]) throws -> [UInt8] {
        try KeybagDocument.decode(bytes).encoded()
    }

    /// A backup file holding the items of `payload` (the plaintext of a backup's sealed part), sealed under
    /// `password` with `iterations` PBKDF2 rounds, so that a restore reads them.
    /// - Throws: `errSecDecode` when `payload` is not a well-formed payload.
    package static func backupFile(payload: [UInt8], password: Secret, iterations: Int) throws -> [UInt8] {
        let contents = try payload.withUnsafeBytes { try BackupArchive.decodePayload($0) }
        return try BackupArchive.seal(contents, password: password.storage, iterations: iterations)
    }
}
