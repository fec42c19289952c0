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
}
