import Foundation
import KeychainCore
import Testing

@testable import SecurityCLI

@Suite struct ItemListingTests {
    @Test func buffersPrintAsMacOSPrintsThem() {
        func text(_ bytes: [UInt8]) -> String { String(decoding: BufferFormatter.format(bytes), as: UTF8.self) }
        #expect(text(Array("alice".utf8)) == "\"alice\"")
        #expect(text(Array("j\u{F6}".utf8)) == "0x6AC3B6  \"j\\303\\266\"")
        #expect(text(Array("20240101120000Z\0".utf8)) == "0x32303234303130313132303030305A00  \"20240101120000Z\\000\"")
        // As print_buffer: a quote as it is, a backslash as an escape (and so the hex too), no bytes nothing, and
        // no printable byte the hex alone.
        #expect(text(Array("a\"b\\".utf8)) == "0x6122625C  \"a\"b\\134\"")
        #expect(text([]) == "")
        #expect(text([1, 2]) == "0x0102 ")
        var hex: [UInt8] = []
        BufferFormatter.appendHex([0x00, 0xAB], to: &hex)
        #expect(hex == Array("00ab".utf8))
    }

    @Test func timestampsAreUTC() {
        #expect(ItemListing.timestamp(Date(timeIntervalSince1970: 0)) == "19700101000000Z")
        #expect(ItemListing.timestamp(Date(timeIntervalSince1970: 1_704_110_400.9)) == "20240101120000Z")
    }

    @Test func attributesComeInMacOSOrderWithNullForAbsentOnes() {
        let listing = ItemListing(keychainPath: "/k/keychain.db")
        let text = listing.attributesText(
            itemClass: .genericPassword,
            attributes: [
                .account: .string("alice"), .service: .string("svc"), .creator: .number(0x6161_706C),
                .type: .number(7), .generic: .data([1, 2]),
            ])
        #expect(
            text == """
                keychain: "/k/keychain.db"
                version: 512
                class: "genp"
                attributes:
                    0x00000007 <blob>=<NULL>
                    0x00000008 <blob>=<NULL>
                    "acct"<blob>="alice"
                    "agrp"<blob>=<NULL>
                    "cdat"<timedate>=<NULL>
                    "crtr"<uint32>="aapl"
                    "cusi"<sint32>=<NULL>
                    "desc"<blob>=<NULL>
                    "gena"<blob>=0x0102 
                    "icmt"<blob>=<NULL>
                    "invi"<sint32>=<NULL>
                    "mdat"<timedate>=<NULL>
                    "nega"<sint32>=<NULL>
                    "prot"<blob>=<NULL>
                    "scrp"<sint32>=<NULL>
                    "svce"<blob>="svc"
                    "type"<uint32>=0x00000007 

                """)
    }

    /// An item added without an account stores Apple's default, empty data; one of an earlier release, or one
    /// given "", holds the string "". Both list as `<NULL>` (the listing's form for an empty value) and as "" in
    /// JSON, so the command's output does not depend on which release wrote the item.
    @Test func anAccountLeftOutListsAsNullWhetherStoredAsEmptyDataOrAsAnEmptyString() throws {
        let harness = CommandHarness()
        #expect(harness.run(["add-generic-password", "-s", "new", "-w", "pw"]).exitCode == 0)
        try harness.keychain().add(
            NewItem(
                itemClass: .genericPassword, attributes: [.service: .string("old"), .account: .string("")],
                data: Array("pw".utf8)))
        let stored = try harness.keychain().copyMatching(
            ItemQuery(itemClass: .genericPassword, limit: .all, returns: .attributes))
        #expect(Set(stored.compactMap { $0.attributes?[.account] }) == [.data([]), .string("")])
        for service in ["new", "old"] {
            let find = harness.run(["find-generic-password", "-s", service])
            #expect(find.exitCode == 0)
            #expect(find.output.contains("    \"acct\"<blob>=<NULL>\n"), "\(service)")
            let json = harness.run(["--json", "find-generic-password", "-s", service])
            #expect(json.output.contains("\"acct\":\"\""), "\(service)")
        }
        // `-a ""` finds both, as a query by "" does.
        #expect(harness.run(["find-generic-password", "-s", "new", "-a", ""]).exitCode == 0)
        #expect(harness.run(["find-generic-password", "-s", "old", "-a", ""]).exitCode == 0)
        let listing = ItemListing(keychainPath: "/k/keychain.db")
        for account in [AttributeValue.data([]), .string("")] {
            let text = listing.attributesText(
                itemClass: .internetPassword, attributes: [.account: account, .path: account])
            #expect(text.contains("    \"acct\"<blob>=<NULL>\n") && text.contains("    \"path\"<blob>=<NULL>\n"))
        }
    }
}
