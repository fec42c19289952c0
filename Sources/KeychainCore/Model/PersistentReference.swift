import Foundation

/// A persistent reference: 20 bytes, the 4-byte class name followed by the item's 16-byte UUID. It stays the
/// same across updates and can be looked up without naming the class.
public struct PersistentReference: Hashable, Sendable {
    public let itemClass: ItemClass
    public let uuid: [UInt8]

    public init(itemClass: ItemClass, uuid: [UInt8]) {
        self.itemClass = itemClass
        self.uuid = uuid
    }

    /// Parses the 20-byte form; nil when the bytes are not a persistent reference.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 20, let name = String(validating: bytes[0..<4], as: UTF8.self),
            let itemClass = ItemClass(rawValue: name)
        else { return nil }
        self.init(itemClass: itemClass, uuid: Array(bytes[4...]))
    }

    /// The 20-byte form handed to callers.
    public var bytes: [UInt8] { Array(itemClass.rawValue.utf8) + uuid }
}
