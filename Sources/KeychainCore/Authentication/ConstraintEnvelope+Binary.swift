import Foundation

/// The compact form of a ``ConstraintEnvelope`` (format 2), read on every access to a constrained item: decoding
/// it costs a fraction of the JSON form (format 1), which stays readable.
///
/// `[0xC2][alternatives: 1]` then per alternative `[factors: 1][2 ASCII bytes each][salt: 1 + bytes]`
/// `[iterations: 4, big-endian][wrapped: 2, big-endian + bytes]`, then the sealed secret.
extension ConstraintEnvelope {
    static let binaryMarker: UInt8 = 0xC2

    /// The envelope in format 2, followed by `sealed`.
    func binaryFraming(_ sealed: [UInt8]) throws -> [UInt8] {
        let tooLarge = KeychainError.param.because("an access control has too many constraints to store")
        guard alternatives.count <= 255 else { throw tooLarge }
        var bytes: [UInt8] = [Self.binaryMarker, UInt8(alternatives.count)]
        for alternative in alternatives {
            guard alternative.factors.count <= 255, alternative.salt.count <= 255, alternative.wrapped.count <= 65_535,
                alternative.iterations >= 0, alternative.iterations <= Int(UInt32.max)
            else { throw tooLarge }
            bytes.append(UInt8(alternative.factors.count))
            for factor in alternative.factors { bytes += Array(factor.rawValue.utf8) }
            bytes.append(UInt8(alternative.salt.count))
            bytes += alternative.salt
            bytes += withUnsafeBytes(of: UInt32(alternative.iterations).bigEndian) { Array($0) }
            bytes += withUnsafeBytes(of: UInt16(alternative.wrapped.count).bigEndian) { Array($0) }
            bytes += alternative.wrapped
        }
        return bytes + sealed
    }

    /// Reads format 2. - Throws: `errSecDecode` when the bytes are damaged.
    static func binaryUnframing(_ column: [UInt8]) throws -> (ConstraintEnvelope, [UInt8]) {
        var reader = ByteReader(bytes: column, position: 1)
        var alternatives: [Alternative] = []
        for _ in 0..<Int(try reader.byte()) {
            var factors: [ConstraintFactor] = []
            for _ in 0..<Int(try reader.byte()) {
                guard let factor = ConstraintFactor(rawValue: String(decoding: try reader.take(2), as: UTF8.self))
                else { throw ByteReader.damaged }
                factors.append(factor)
            }
            let salt = try reader.take(Int(try reader.byte()))
            let iterations = try reader.take(4).reduce(0) { $0 << 8 | Int($1) }
            let wrappedCount = try reader.take(2).reduce(0) { $0 << 8 | Int($1) }
            let wrapped = try reader.take(wrappedCount)
            alternatives.append(Alternative(factors: factors, salt: Data(salt), iterations: iterations,
                                            wrapped: Data(wrapped)))
        }
        return (ConstraintEnvelope(alternatives: alternatives), Array(column[reader.position...]))
    }
}
