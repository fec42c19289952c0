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
        var writer = BinaryWriter()
        try writer.appendLengthPrefixed(Array(try JSONEncoder().encode(self)), as: UInt32.self, tooLong: Self.damaged)
        writer.append(contentsOf: sealed)
        return writer.bytes
    }

    /// Splits a stored secret column into its envelope and sealed secret.
    static func unframing(_ column: [UInt8]) throws -> (ConstraintEnvelope, [UInt8]) {
        if column.first == binaryMarker { return try binaryUnframing(column) }
        return try BinaryReader.reading(column, damaged: damaged) { reader in
            let json = Data(try reader.lengthPrefixed(UInt32.self))
            guard let envelope = try? JSONDecoder().decode(Self.self, from: json) else { throw damaged }
            return (envelope, Array(reader.rest()))
        }
    }
}

/// One thing an access-control constraint asks for before an item's secret is released.
enum ConstraintFactor: String, Codable, Sendable, Hashable, Comparable {
    case biometryAny = "ba"
    case biometryCurrentSet = "bc"
    case devicePasscode = "pc"
    case applicationPassword = "ap"
    case companion = "wa"

    static func < (lhs: ConstraintFactor, rhs: ConstraintFactor) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The authentication that satisfies the factor, if it is one.
    var method: AuthenticationMethod? {
        switch self {
        case .biometryAny, .biometryCurrentSet: .biometry
        case .devicePasscode: .devicePasscode
        case .companion: .companion
        case .applicationPassword: nil
        }
    }
}
