import KeychainCrypto
import Testing

@testable import KeychainCore

/// A new item's UUID and key come from one draw: each the right size, and new every time.
@Suite struct FreshItemIdentityTests {
    @Test func eachDrawGivesAUUIDAndAKeyOfTheirSizesNeverSeenBefore() throws {
        var uuids = Set<[UInt8]>()
        var keys = Set<[UInt8]>()
        for _ in 0..<64 {
            let fresh = try FreshItemIdentity.draw()
            #expect(fresh.uuid.count == 16)
            #expect(fresh.itemKey.count == AESGCM.keySize)
            uuids.insert(fresh.uuid)
            keys.insert(fresh.itemKey.bytes)
            #expect(!fresh.itemKey.bytes.starts(with: fresh.uuid))
        }
        #expect(uuids.count == 64 && keys.count == 64)
    }

    /// The `uuid` index takes one process's new items side by side: the UUIDs drawn one after another sort in
    /// the order they were drawn (their first six bytes count up), and their last ten bytes are random.
    @Test func uuidsDrawnOneAfterAnotherSortInTheOrderDrawn() throws {
        let drawn = try (0..<64).map { _ in try FreshItemIdentity.draw().uuid }
        #expect(drawn.sorted { $0.lexicographicallyPrecedes($1) } == drawn)
        #expect(Set(drawn.map { Array($0.suffix(10)) }).count == 64)
        let first = drawn[0].prefix(6).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let last = drawn[63].prefix(6).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(last > first)
    }
}
