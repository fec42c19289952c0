import Testing

@testable import KeychainCore

/// One matcher decides "does this item match" and says "why not": the two answers cannot disagree.
@Suite struct AttributeMatcherTests {
    private let item: [AttributeKey: AttributeValue] = [
        .account: .string("Alice"), .service: .string("svc"), .accessGroup: .string("G1"),
        .synchronizable: .bool(true),
    ]

    private func matcher(
        _ attributes: [AttributeKey: AttributeValue], caseInsensitive: Bool = false,
        sync: SynchronizableFilter = .any, groups: [String] = ["G1"]
    ) -> AttributeMatcher {
        AttributeMatcher(
            ItemQuery(
                itemClass: .genericPassword, attributes: attributes, synchronizable: sync,
                caseInsensitive: caseInsensitive), groups: .only(groups))
    }

    @Test func holdsExactlyWhenThereIsNoMismatch() {
        let cases: [(AttributeMatcher, [AttributeMatcher.Mismatch])] = [
            (matcher([.account: .string("Alice")]), []),
            (
                matcher([.account: .string("alice")]),
                [.differs(.account, actual: .string("Alice"), wanted: .string("alice"), onlyInCase: true)]
            ),
            (matcher([.account: .string("alice")], caseInsensitive: true), []),
            (matcher([.label: .string("L")]), [.absent(.label, wanted: .string("L"))]),
            (matcher([:], sync: .no), [.synchronizable(itemIsSynchronizable: true)]),
            (matcher([:], groups: ["G2"]), [.accessGroup(item: "G1")]),
            // An absent primary-key attribute is its default: "" matches it.
            (matcher([.generic: .data([])]), [.absent(.generic, wanted: .data([]))]),
        ]
        let schema = ClassSchema.genericPassword
        for (matcher, expected) in cases {
            let found = matcher.mismatches(item, schema: schema)
            #expect(found == expected)
            #expect(matcher.holds(for: item, schema: schema) == expected.isEmpty)
        }
        #expect(matcher([:]).mismatches(item.filter { $0.key != .account }, schema: schema).isEmpty)
        #expect(matcher([.account: .string("")]).holds(for: item.filter { $0.key != .account }, schema: schema))
    }

    @Test func aNamedProtectionClassIsARule() {
        var query = ItemQuery(itemClass: .genericPassword, synchronizable: .any)
        query.accessibility = .afterFirstUnlock
        let matcher = AttributeMatcher(query, groups: .only(["G1"]))
        #expect(
            matcher.mismatches(item, schema: .genericPassword, protection: .whenUnlocked)
                == [.accessibility(item: "ak", wanted: "ck")])
        #expect(matcher.holds(for: item, schema: .genericPassword, protection: .afterFirstUnlock))
    }
}
