import KeychainCrypto

/// A new item's UUID and key, from one draw of random bytes: a call of OpenSSL's generator costs about 7,000
/// instructions whatever the size asked for. The parts are as independent as two draws' would be: the UUID, which
/// is stored in plaintext, says nothing of the key.
struct FreshItemIdentity {
    let uuid: [UInt8]
    let itemKey: SecureBytes

    static let uuidSize = 16

    static func draw() throws -> FreshItemIdentity {
        let keySize = AESGCM.keySize
        let drawn = try SystemRandom.key(keySize + uuidSize)
        return drawn.withUnsafeBytes { bytes in
            let key = SecureBytes(count: keySize) {
                $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[..<keySize]))
            }
            return FreshItemIdentity(uuid: Array(bytes[keySize...]), itemKey: key)
        }
    }
}
