import KeychainCrypto
import Synchronization

/// A new item's UUID and key, from one draw of random bytes: a call of OpenSSL's generator costs about 7,000
/// instructions whatever the size asked for. The parts are as independent as two draws' would be: the UUID, which
/// is stored in plaintext, says nothing of the key.
///
/// The UUID's first six bytes count this process's new items up from a random start; the other ten are random.
/// The `uuid` column's unique index then takes a process's new items side by side, in one page, where sixteen
/// random bytes put each in a page of its own, a page more to write for every add (docs/storage.md). The count
/// tells no more than the row's own number does (the order of adds), and nothing of when they were made.
struct FreshItemIdentity {
    let uuid: [UInt8]
    let itemKey: SecureBytes

    static let uuidSize = 16
    static let sequencedBytes = 6

    /// The next sequence number (its low 48 bits are used), from a random start, so that processes start apart.
    private static let sequence = Atomic<UInt64>(UInt64.random(in: 0..<(1 << 48)))

    static func draw() throws -> FreshItemIdentity {
        let keySize = AESGCM.keySize
        let randomSize = uuidSize - sequencedBytes
        let drawn = try SystemRandom.key(keySize + randomSize)
        let number = sequence.wrappingAdd(1, ordering: .relaxed).oldValue
        return drawn.withUnsafeBytes { bytes in
            let key = SecureBytes(count: keySize) {
                $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[..<keySize]))
            }
            var uuid = (0..<sequencedBytes).map { UInt8(truncatingIfNeeded: number >> (8 * (sequencedBytes - 1 - $0))) }
            uuid.append(contentsOf: bytes[keySize...])
            return FreshItemIdentity(uuid: uuid, itemKey: key)
        }
    }
}
