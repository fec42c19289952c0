import KeychainCore

/// Persistent references as callers hand them back: parsing, the 20-byte round trip, and a lookup in a
/// keychain with items (a reference to nothing, another class or another group finds nothing).
extension FuzzTarget {
    static let persistentReference = FuzzTarget(
        name: "persistent-reference",
        summary: "PersistentReference(bytes:) of the input, its round trip and a lookup by reference"
    ) { bytes in
        guard let reference = PersistentReference(bytes: bytes) else {
            fuzzCheck(bytes.count != 20 || !bytes.starts(with: Array("genp".utf8)), "a genp reference was refused")
            return
        }
        fuzzCheck(reference.bytes == bytes, "a persistent reference does not round-trip")
        let query = ItemQuery(
            limit: .all, returns: [.attributes, .persistentReference], persistentReference: reference)
        if let found = try? FuzzKeychain.shared.copyMatching(query) {
            fuzzCheck(found.allSatisfy { $0.persistentReference == reference }, "a lookup found another item")
        }
    }
}
