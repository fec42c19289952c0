import Foundation

/// The compact form of a ``ConstraintEnvelope`` (format 2), read on every access to a constrained item: decoding
/// it costs a fraction of the JSON form (format 1), which stays readable.
///
/// `[0xC2][alternatives: u8]` then per alternative `[factors: u8][2 ASCII bytes each][salt: u8-len]`
/// `[iterations: u32][wrapped: u16-len]`, then the sealed secret; big-endian (``BinaryWriter``).
extension ConstraintEnvelope {
    static let binaryMarker: UInt8 = 0xC2

    static var damaged: KeychainError { KeychainError.decode.because("a constrained item's key envelope is damaged") }

    /// The envelope in format 2, followed by `sealed`.
    func binaryFraming(_ sealed: [UInt8]) throws -> [UInt8] {
        let tooLarge = KeychainError.param.because("an access control has too many constraints to store")
        guard let count = UInt8(exactly: alternatives.count) else { throw tooLarge }
        var writer = BinaryWriter()
        writer.append(Self.binaryMarker)
        writer.append(count)
        for alternative in alternatives {
            guard let factors = UInt8(exactly: alternative.factors.count),
                let iterations = UInt32(exactly: alternative.iterations)
            else { throw tooLarge }
            writer.append(factors)
            for factor in alternative.factors { writer.append(contentsOf: factor.rawValue.utf8) }
            try writer.appendLengthPrefixed(Array(alternative.salt), as: UInt8.self, tooLong: tooLarge)
            writer.append(integer: iterations)
            try writer.appendLengthPrefixed(Array(alternative.wrapped), as: UInt16.self, tooLong: tooLarge)
        }
        writer.append(contentsOf: sealed)
        return writer.bytes
    }

    /// Reads format 2. - Throws: `errSecDecode` when the bytes are damaged.
    static func binaryUnframing(_ column: [UInt8]) throws -> (ConstraintEnvelope, [UInt8]) {
        try BinaryReader.reading(column, damaged: damaged) { reader in
            _ = try reader.byte()  // the marker
            var alternatives: [Alternative] = []
            for _ in 0..<Int(try reader.byte()) {
                var factors: [ConstraintFactor] = []
                for _ in 0..<Int(try reader.byte()) {
                    guard let factor = ConstraintFactor(rawValue: String(decoding: try reader.take(2), as: UTF8.self))
                    else { throw damaged }
                    factors.append(factor)
                }
                let salt = Data(try reader.lengthPrefixed(UInt8.self))
                let iterations = Int(try reader.integer(UInt32.self))
                let wrapped = Data(try reader.lengthPrefixed(UInt16.self))
                alternatives.append(Alternative(factors: factors, salt: salt, iterations: iterations, wrapped: wrapped))
            }
            return (ConstraintEnvelope(alternatives: alternatives), Array(reader.rest()))
        }
    }
}
