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

    /// A column digest is the MAC of `domain ‖ name ‖ 0 ‖ value`, truncated to 16 bytes, whether the attribute's
    /// prefix was made when the digester was (every stored class's attributes) or when first asked for.
    @Test(arguments: [IndexDigester.storedAttributes, []])
    func columnDigestsAreTheMACOfTheDocumentedEncoding(madeAtInit: [AttributeKey]) throws {
        let key = SecureBytes(Array(repeating: 0x5A, count: 32))
        let digester = try IndexDigester(indexKey: key, attributes: madeAtInit)
        let mac = try HMACSHA256(key: key)
        func expected(_ domain: UInt8, _ name: String, _ value: [UInt8]) throws -> [UInt8] {
            try mac.authenticate(message: [domain] + Array(name.utf8) + [0] + value, truncatedTo: 16)
        }
        #expect(try digester.digest(.account, .string("Alice")) == (try expected(0x64, "acct", Array("Alice".utf8))))
        #expect(
            try digester.foldedDigest(.account, .string("Alice")) == (try expected(0x66, "acct", Array("alice".utf8))))
        #expect(try digester.digest(AttributeKey("zzzz"), .data([7])) == (try expected(0x64, "zzzz", [7])))
        let one: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 1]
        #expect(digester.synchronizableDigest(true) == (try expected(0x64, "sync", one)))
        #expect(digester.synchronizableDigest(false) == (try expected(0x64, "sync", [UInt8](repeating: 0, count: 8))))
        #expect(try digester.recurringDigest(.synchronizable, .number(1)) == digester.synchronizableDigest(true))
    }
}
