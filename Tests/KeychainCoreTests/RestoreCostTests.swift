import Foundation
import KeychainCrypto
import Testing

@testable import KeychainCore

/// A forged backup costs a restore no more than its bytes: the count is checked against them, and each entry is
/// checked as it is read, so a bad one fails before the rest is decoded (a 250 MiB file of empty entries held
/// 2.3 GB for 100 s before its first entry was refused).
@Suite struct RestoreCostTests {
    private let password = SecureBytes(Array("pw".utf8))

    /// An entry with nothing in it, 33 bytes: the smallest the format allows, and refused by any restore.
    private func emptyEntry(_ number: UInt32) -> [UInt8] {
        [4] + Array("genp".utf8) + [16] + Array(repeating: 0, count: 12) + number.bigEndianBytes + [2]
            + Array("ak".utf8) + [0, 0, 0, 0, 0, 0, 0, 0]
    }

    /// An entry a restore accepts, encoded as a backup writes it.
    private func goodEntry(_ number: UInt32) throws -> [UInt8] {
        let attributes: [AttributeKey: AttributeValue] = [
            .account: .string("a\(number)"), .service: .string("s"), .accessGroup: .string("TEAM1.com.example.app"),
            .synchronizable: .bool(false), .creationDate: .date(Date()), .modificationDate: .date(Date()),
        ]
        let encoded = try AttributeCodec.encode(attributes)
        return [4] + Array("genp".utf8) + [16] + Array(repeating: 0, count: 12) + number.bigEndianBytes + [2]
            + Array("ck".utf8) + UInt32(encoded.count).bigEndianBytes + encoded + [0, 0, 0, 1, 0x78]
    }

    /// Bytes no entry can begin with: a class name longer than what follows.
    private let garbage = [UInt8](repeating: 0xFF, count: 64)

    private func restoreFails(count: UInt32, _ body: [UInt8]) throws -> (KeychainError, Int) {
        let payload = UInt32(0).bigEndianBytes + count.bigEndianBytes + body
        let file = try BackupArchive.sealPayload(payload, password: password, iterations: 1000)
        let keychain = try makeKeychain()
        do {
            _ = try keychain.restore(archive: file, password: Secret(Array("pw".utf8)))
        } catch let error as KeychainError {
            return (error, try keychain.count(ItemQuery(itemClass: .genericPassword, synchronizable: .any)))
        }
        Issue.record("the restore succeeded")
        return (KeychainError.param, -1)
    }

    @Test func aCountMoreThanThePayloadCanHoldIsRefusedBeforeAnyEntry() throws {
        let (error, left) = try restoreFails(count: .max, emptyEntry(1))
        #expect(error.status == SecurityStatus.decode)
        #expect(error.reason?.contains("4294967295 items, more than their 33 bytes can") == true, "\(error)")
        #expect(left == 0)
    }

    @Test func aBadFirstEntryIsRefusedBeforeTheRestIsDecoded() throws {
        let (error, left) = try restoreFails(count: 2, emptyEntry(1) + garbage)
        #expect(error.status == SecurityStatus.decode)
        #expect(error.reason?.contains("without its group, sync flag or dates") == true, "\(error)")
        #expect(left == 0)
    }

    @Test func aRepeatedReferenceIsRefusedBeforeTheRestIsDecoded() throws {
        let (error, left) = try restoreFails(count: 3, try goodEntry(1) + goodEntry(1) + garbage)
        #expect(error.status == SecurityStatus.decode)
        #expect(error.reason?.contains("the backup itself holds two items") == true, "\(error)")
        #expect(left == 0)
    }

    @Test func aDamagedEndAfterGoodEntriesRestoresNothing() throws {
        let (error, left) = try restoreFails(count: 3, try goodEntry(1) + goodEntry(2) + garbage)
        #expect(error.status == SecurityStatus.decode)
        #expect(left == 0)
    }
}
