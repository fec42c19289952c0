import KeychainCrypto
import Synchronization

/// Keyed digests (HMAC-SHA-256 under the device's index key) of attribute values: what lookups and the
/// uniqueness constraint compare, so no attribute value is stored in plaintext. Unlike an unsalted hash, a
/// digest cannot be checked against guesses without the device key; with it (a copy of the whole home) it can,
/// whatever the item's class (docs/storage.md).
final class IndexDigester: Sendable {
    /// Digest columns keep 16 bytes: ample for equality lookups; the primary key keeps all 32.
    static let columnDigestSize = 16

    private let mac: HMACSHA256
    // Every digest of one attribute starts with the same prefix (domain, attribute name); each gets a MAC
    // that has absorbed it already. Those of every stored class's attributes are made once, at init, and only
    // read after: every add takes a dozen, and a shared lock around them was contended by the daemon's threads.
    private let prefixedAtInit: [PrefixKey: HMACSHA256]
    // Those of any other attribute (an explanation's, say), made when first asked for.
    private let prefixedLater: Mutex<[PrefixKey: HMACSHA256]> = Mutex([:])
    // The sync flag's two digests, made once too: every add and every search takes one.
    private let synchronizableDigests: (no: [UInt8], yes: [UInt8])
    // Access groups and the sync flag recur in every call; their digests are worth remembering.
    private let recurring = Mutex<[RecurringKey: [UInt8]]>([:])
    // The last groups searched: every search filters on them.
    private let lastGroups = Mutex<(groups: [String], digests: [[UInt8]])?>(nil)
    // The values of the last few queries: a process tends to ask for the same service (or the same item) again.
    private let recentQueries = Mutex<[QueryKey: [UInt8]]>([:])
    private static let recentQueryCapacity = 64
    // Long values are not kept: a few names and identifiers repeat, and the cache stays a few kilobytes.
    private static let recentQueryLargestValue = 256

    private struct PrefixKey: Hashable {
        let domain: UInt8
        let attribute: String
    }

    private struct QueryKey: Hashable {
        let attribute: AttributeKey
        let value: AttributeValue
        let folded: Bool

        // The value alone: equal keys still hash alike, equality compares all three, and hashing the attribute's
        // name as well cost a lookup as much again.
        func hash(into hasher: inout Hasher) { hasher.combine(value) }
    }

    private struct RecurringKey: Hashable {
        let attribute: String
        let value: AttributeValue
    }

    /// - Parameter attributes: those whose digests are made often (every stored class's, by default).
    init(indexKey: SecureBytes, attributes: [AttributeKey] = IndexDigester.storedAttributes) throws {
        let mac = try HMACSHA256(key: indexKey)
        self.mac = mac
        var prefixed: [PrefixKey: HMACSHA256] = [:]
        for key in attributes {
            for domain in [KeyHierarchy.DigestDomain.column, .folded] {
                let prefixKey = PrefixKey(domain: domain.rawValue, attribute: key.rawValue)
                prefixed[prefixKey] = try Self.prefixedMAC(mac, prefixKey)
            }
        }
        prefixedAtInit = prefixed
        let sync = try Self.prefixedMAC(
            mac,
            PrefixKey(
                domain: KeyHierarchy.DigestDomain.column.rawValue, attribute: AttributeKey.synchronizable.rawValue))
        func digest(_ flag: Bool) throws -> [UInt8] {
            try AttributeValue.bool(flag).withMatchingBytes {
                try sync.authenticate(bytes: $0, truncatedTo: Self.columnDigestSize)
            }
        }
        synchronizableDigests = (try digest(false), try digest(true))
    }

    /// Every attribute of the stored classes, with the group and the sync flag.
    static var storedAttributes: [AttributeKey] {
        Array(Set(ClassSchema.stored.flatMap { $0.attributes.keys }).union([.accessGroup, .synchronizable]))
    }

    private static func prefixedMAC(_ mac: HMACSHA256, _ key: PrefixKey) throws -> HMACSHA256 {
        try mac.prefixed(with: [key.domain] + Array(key.attribute.utf8) + [0])
    }

    private func mac(domain: UInt8, _ key: AttributeKey) throws -> HMACSHA256 {
        let cacheKey = PrefixKey(domain: domain, attribute: key.rawValue)
        if let known = prefixedAtInit[cacheKey] ?? prefixedLater.withLock({ $0[cacheKey] }) { return known }
        let made = try Self.prefixedMAC(mac, cacheKey)
        prefixedLater.withLock { $0[cacheKey] = made }
        return made
    }

    /// The digest stored in the column of `key` for `value`.
    func digest(_ key: AttributeKey, _ value: AttributeValue) throws -> [UInt8] {
        let mac = try mac(domain: KeyHierarchy.DigestDomain.column.rawValue, key)
        return try value.withMatchingBytes { try mac.authenticate(bytes: $0, truncatedTo: Self.columnDigestSize) }
    }

    /// The digest of the case-folded value, for case-insensitive matching; nil when the value is not text.
    func foldedDigest(_ key: AttributeKey, _ value: AttributeValue) throws -> [UInt8]? {
        guard let folded = value.foldedBytes else { return nil }
        return try mac(domain: KeyHierarchy.DigestDomain.folded.rawValue, key).authenticate(
            message: folded, truncatedTo: Self.columnDigestSize)
    }

    /// The digest of a query's condition (`folded`: of its case-folded value, nil when it is not text),
    /// remembered for the next few queries when it is short. A small cache, emptied when full, so it holds only
    /// what repeats within a few calls and never grows with the keychain.
    func queryDigest(_ key: AttributeKey, _ value: AttributeValue, folded: Bool = false) throws -> [UInt8]? {
        guard value.byteCount <= Self.recentQueryLargestValue else {
            return folded ? try foldedDigest(key, value) : try digest(key, value)
        }
        let cacheKey = QueryKey(attribute: key, value: value, folded: folded)
        if let known = recentQueries.withLock({ $0[cacheKey] }) { return known }
        guard let computed = folded ? try foldedDigest(key, value) : try digest(key, value) else { return nil }
        recentQueries.withLock { cache in
            if cache.count >= Self.recentQueryCapacity { cache.removeAll(keepingCapacity: true) }
            cache[cacheKey] = computed
        }
        return computed
    }

    /// A digest remembered across calls, for the few values that recur (groups, the sync flag).
    func recurringDigest(_ key: AttributeKey, _ value: AttributeValue) throws -> [UInt8] {
        let cacheKey = RecurringKey(attribute: key.rawValue, value: value)
        if let known = recurring.withLock({ $0[cacheKey] }) { return known }
        let computed = try digest(key, value)
        recurring.withLock { cache in
            if cache.count > 1024 { cache.removeAll() }
            cache[cacheKey] = computed
        }
        return computed
    }

    /// The digests of a search's groups, as ``recurringDigest(_:_:)`` gives each. The last list asked for is kept
    /// whole: a process searches the same groups call after call, and comparing them costs less than hashing them.
    func groupDigests(_ groups: [String]) throws -> [[UInt8]] {
        if let known = lastGroups.withLock({ $0?.groups == groups ? $0?.digests : nil }) { return known }
        let computed = try groups.map { try recurringDigest(.accessGroup, .string($0)) }
        lastGroups.withLock { $0 = (groups, computed) }
        return computed
    }

    /// The digest of the sync flag `value`, as ``digest(_:_:)`` gives it, made at init.
    func synchronizableDigest(_ value: Bool) -> [UInt8] {
        value ? synchronizableDigests.yes : synchronizableDigests.no
    }

    /// The digest of a whole primary key: the class, then each (attribute, value) in a fixed order, each
    /// part length-prefixed so that no two keys share an encoding.
    func primaryKeyDigest(_ itemClass: ItemClass, _ parts: [(AttributeKey, AttributeValue)]) throws -> [UInt8] {
        // Appended in place: a few hundred bytes, not an array for every piece.
        var input: [UInt8] = []
        input.reserveCapacity(256)
        input.append(KeyHierarchy.DigestDomain.primaryKey.rawValue)
        input.append(contentsOf: itemClass.rawValue.utf8)
        for (key, value) in parts {
            input.append(contentsOf: key.rawValue.utf8)
            input.append(0)
            value.withMatchingBytes { bytes in
                // Values are at most 1 MiB.
                withUnsafeBytes(of: UInt32(truncatingIfNeeded: bytes.count).bigEndian) { input.append(contentsOf: $0) }
                input.append(contentsOf: bytes)
            }
        }
        return try mac.authenticate(message: input)
    }
}
