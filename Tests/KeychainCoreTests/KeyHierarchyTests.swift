import Testing

@testable import KeychainCore

/// No two derivations share a label or a domain byte (the committed format-1 home, opened by
/// `ConstraintBindingTests`, pins their bytes: a changed label would make it unreadable).
@Suite struct KeyHierarchyTests {
    @Test func labelsAndDomainBytesAreDistinct() {
        let labels = KeyHierarchy.allLabels
        #expect(Set(labels).count == labels.count)
        // No label is a prefix of another, so label ‖ 0 ‖ input never collides across uses either.
        for label in labels {
            #expect(!labels.contains { $0 != label && $0.hasPrefix(label + "\0") })
        }
        let domains = KeyHierarchy.DigestDomain.allCases.map(\.rawValue)
        #expect(Set(domains).count == domains.count)
        let parts = KeyHierarchy.ItemPart.allCases.map(\.rawValue)
        #expect(Set(parts).count == parts.count)
    }
}
