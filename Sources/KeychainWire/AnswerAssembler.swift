import KeychainCrypto

/// Puts an answer that came in parts (``AnswerPart``) back together on the client, refusing one whose whole size
/// is over `limit` as soon as its first part says so. The buffer is sized once, from the first part, so that no
/// reallocation leaves a copy of the answer behind, and it is wiped when the assembler goes.
package final class AnswerAssembler {
    /// Why the parts do not make an answer.
    package enum Failure: Error, Equatable, Sendable {
        /// The whole answer is larger than the client takes.
        case tooLarge(size: UInt64, limit: Int)
        /// The parts disagree with each other or with the closing frame (a broken daemon): what went wrong.
        case inconsistent(String)
    }

    package let limit: Int
    private var bytes: [UInt8] = []
    private var expected: UInt64?

    package init(limit: Int) { self.limit = limit }

    deinit { wipe() }

    /// Whether a part has arrived (so the answer is not complete until its `response`).
    package var isStarted: Bool { expected != nil }

    /// Adds the piece of a `response-part` frame.
    package func add(partPayload payload: [UInt8]) throws(Failure) {
        let totalSize: UInt64
        do {
            totalSize = try AnswerPart.totalSize(ofPart: payload)
        } catch {
            throw .inconsistent("a part is shorter than its header")
        }
        if let expected {
            guard totalSize == expected else { throw .inconsistent("the parts disagree on the answer's size") }
        } else {
            guard totalSize <= UInt64(limit) else { throw .tooLarge(size: totalSize, limit: limit) }
            expected = totalSize
            bytes.reserveCapacity(Int(totalSize))
        }
        // The piece is read in place: a copy of it would hold secrets and go unwiped.
        let piece = payload[AnswerPart.headerSize...]
        guard UInt64(bytes.count + piece.count) <= totalSize else {
            throw .inconsistent("the parts carry more than the answer's size")
        }
        bytes += piece
    }

    /// The whole answer, given the payload of the closing `response` frame (the answer itself when there were no
    /// parts). The caller wipes what it gets once decoded.
    package func finish(responsePayload payload: [UInt8]) throws(Failure) -> [UInt8] {
        guard let expected else { return payload }
        guard UInt64(bytes.count + payload.count) == expected else {
            throw .inconsistent("the parts and the response do not add up to the answer's size")
        }
        bytes += payload
        defer { self.expected = nil }
        let whole = bytes
        bytes = []
        return whole
    }

    private func wipe() { KeychainCrypto.wipe(&bytes) }
}
