import Foundation

/// How a constrained item's secret key is kept: one wrapped copy per alternative of its access control, each
/// under a key derived from every factor of that alternative (biometry secrets, the passcode constraint key,
/// a stretched application password). Stored in front of the sealed secret.
struct ConstraintEnvelope: Codable, Equatable {
    struct Alternative: Codable, Equatable {
        var factors: [ConstraintFactor]
        /// Salt of the application-password stretch and of the key derivation.
        var salt: Data
        var iterations: Int
        /// The secret key, AES-key-wrapped under the alternative's key.
        var wrapped: Data
    }

    var alternatives: [Alternative]

    /// The envelope in front of the sealed secret: format 2 (see `binaryFraming`).
    func framing(_ sealed: [UInt8]) throws -> [UInt8] {
        try binaryFraming(sealed)
    }

    /// Format 1: `[length: 4 bytes][envelope JSON][sealed secret]` (still read; no longer written).
    func jsonFraming(_ sealed: [UInt8]) throws -> [UInt8] {
        let json = Array(try JSONEncoder().encode(self))
        return withUnsafeBytes(of: UInt32(json.count).bigEndian) { Array($0) } + json + sealed
    }

    /// Splits a stored secret column into its envelope and sealed secret.
    static func unframing(_ column: [UInt8]) throws -> (ConstraintEnvelope, [UInt8]) {
        if column.first == binaryMarker { return try binaryUnframing(column) }
        let damaged = KeychainError.decode.because("a constrained item's key envelope is damaged")
        guard column.count >= 4 else { throw damaged }
        let length = Int(column[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        guard column.count >= 4 + length else { throw damaged }
        guard let envelope = try? JSONDecoder().decode(Self.self, from: Data(column[4..<(4 + length)])) else {
            throw damaged
        }
        return (envelope, Array(column[(4 + length)...]))
    }
}
