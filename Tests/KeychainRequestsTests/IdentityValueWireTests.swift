import Foundation
import KeychainCore
import Testing

@testable import KeychainRequests

/// An identity's value crosses the wire (to keychaind) whole: its certificate, its key and the attributes each
/// half derives from its object.
@Suite struct IdentityValueWireTests {
    @Test func anIdentityAddRoundTrips() throws {
        let key = KeyValue(keyType: "73", keyClass: "1", sizeInBits: 256, externalRepresentation: Secret([4, 1, 2, 3]))
        var item = NewItem(itemClass: .identity, attributes: [.label: .string("mine")])
        item.value = .identity(
            IdentityValue(
                certificate: CertificateValue(derBytes: [0x30, 0x03, 1, 2, 3]), key: key,
                certificateAttributes: [.publicKeyHash: .data([9, 9]), .label: .string("CN")],
                keyAttributes: [.applicationLabel: .data([9, 9]), .keyClass: .number(1)]))
        let bytes = try RequestCodec.encode(.add(item), context: nil)
        let decoded = try RequestCodec.decode(bytes)
        guard case .add(let back) = decoded.request, case .identity(let identity)? = back.value else {
            Issue.record("the add did not come back as an identity add")
            return
        }
        #expect(identity.certificate.derBytes == [0x30, 0x03, 1, 2, 3])
        #expect(identity.key.externalRepresentation.bytes == [4, 1, 2, 3] && identity.key.keyClass == "1")
        #expect(identity.certificateAttributes == [.publicKeyHash: .data([9, 9]), .label: .string("CN")])
        #expect(identity.keyAttributes == [.applicationLabel: .data([9, 9]), .keyClass: .number(1)])
        #expect(try RequestCodec.encode(decoded.request, context: nil) == bytes)
        // A message cut short inside the identity is damaged, not a trap.
        #expect((try? RequestCodec.decode(Array(bytes.dropLast()))) == nil)
    }
}
