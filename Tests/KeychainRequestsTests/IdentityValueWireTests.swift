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

    /// An identity whose key is another identity, nested 300,000 deep (1.5 MB, well under the frame limit), is a
    /// damaged message: it was read by recursion and ran the reader out of stack, which killed keychaind.
    @Test func identitiesNestedInIdentitiesAreErrSecDecodeNotACrash() throws {
        var item = NewItem(itemClass: .identity)
        let marker: [UInt8] = [0xAB, 0xCD, 0xEF, 0x12]
        item.value = .certificate(CertificateValue(derBytes: marker))
        let bytes = try RequestCodec.encode(.add(item), context: nil)
        let value: [UInt8] = [2, 0, 0, 0, 4] + marker
        let start = try #require(
            bytes.indices.first { bytes[$0...].starts(with: value) }, "the certificate value is in the message")
        let nested = Array(repeating: [3, 0, 0, 0, 0] as [UInt8], count: 300_000).flatMap { $0 }
        let hostile = Array(bytes[..<start]) + nested + Array(bytes[start...])
        #expect {
            try RequestCodec.decode(hostile)
        } throws: {
            ($0 as? KeychainError)?.status == SecurityStatus.decode
        }
    }
}
