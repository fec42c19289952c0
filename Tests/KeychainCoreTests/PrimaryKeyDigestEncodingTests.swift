import KeychainCrypto
import Testing

@testable import KeychainCore

/// The primary-key digest is stored in every row and decides uniqueness: its input must stay the same bytes
/// whatever builds it: `domain ‖ class ‖ (name ‖ 0 ‖ u32 big-endian length ‖ value)…` (the `pkey` column of
/// docs/storage.md).
@Suite struct PrimaryKeyDigestEncodingTests {
    @Test func theDigestIsTheMACOfTheDocumentedEncoding() throws {
        let key = SecureBytes(Array(repeating: 0x5A, count: 32))
        let digester = try IndexDigester(indexKey: key)
        let parts: [(AttributeKey, AttributeValue)] = [
            (.account, .string("alice@example.com")), (.service, .data([0, 1, 2])), (.port, .number(443)),
            (.synchronizable, .bool(true)),
        ]
        var expected: [UInt8] = [0x70] + Array("inet".utf8)
        expected += Array("acct".utf8) + [0, 0, 0, 0, 17] + Array("alice@example.com".utf8)
        expected += Array("svce".utf8) + [0, 0, 0, 0, 3, 0, 1, 2]
        expected += Array("port".utf8) + [0, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 1, 0xBB]
        expected += Array("sync".utf8) + [0, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 1]
        let mac = try HMACSHA256(key: key)
        #expect(try digester.primaryKeyDigest(.internetPassword, parts) == (try mac.authenticate(message: expected)))
    }
}
