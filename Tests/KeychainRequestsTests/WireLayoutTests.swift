import Foundation
import KeychainCore
import Testing

@testable import KeychainRequests

/// The typed encoding's bytes, field by field: integers and lengths big-endian, as the daemon of an earlier
/// release reads them.
@Suite struct WireLayoutTests {
    @Test func integersAndLengthsAreBigEndian() throws {
        let grace = try RequestCodec.encode(.setGracePeriod(seconds: 300), context: nil)
        #expect(grace == [0, 45, 0, 0, 0, 0, 0, 0, 0x01, 0x2C])
        let negative = try RequestCodec.encode(.setGracePeriod(seconds: -2), context: nil)
        #expect(negative == [0, 45] + [UInt8](repeating: 0xFF, count: 7) + [0xFE])
        let unlock = try RequestCodec.encode(.unlock(passcode: Secret(Array("12".utf8))), context: nil)
        #expect(unlock == [0, 42, 0, 0, 0, 2, 0x31, 0x32])
        let reuse = AuthenticationContextSettings(reuseDuration: 1.5, interactionNotAllowed: nil)
        let configure = try RequestCodec.encode(.configureAuthenticationContext(reuse), context: nil)
        #expect(configure == [0, 22, 1] + withUnsafeBytes(of: (1.5).bitPattern.bigEndian) { Array($0) } + [0])
    }

    /// Protocol 5's request: a context's `localizedReason` as a tag of its own (29), never sent to an older daemon;
    /// `configure` (22) keeps its layout, which every daemon reads.
    @Test func aLocalizedReasonIsATagOfItsOwn() throws {
        let bytes = try RequestCodec.encode(.setLocalizedReason("Hi"), context: nil)
        #expect(bytes == [0, 29, 0, 0, 0, 2] + Array("Hi".utf8))
        guard case .setLocalizedReason(let reason) = try RequestCodec.decode(bytes).request else {
            Issue.record("not a localizedReason")
            return
        }
        #expect(reason == "Hi")
        #expect(KeychainRequest.setLocalizedReason("Hi").minimumProtocol == 5)
    }

    @Test func aQueryReadsBackFieldByField() throws {
        var query = ItemQuery(
            itemClass: .genericPassword, attributes: [.account: .string("ü-1"), .service: .string("s")])
        query.limit = .count(3)
        query.returns = .data
        let bytes = try RequestCodec.encode(.search(query), context: nil)
        guard case .search(let decoded) = try RequestCodec.decode(bytes).request else {
            Issue.record("not a search")
            return
        }
        #expect(decoded.itemClass == .genericPassword)
        #expect(decoded.attributes == [.account: .string("ü-1"), .service: .string("s")])
        #expect(decoded.limit == .count(3))
        #expect(decoded.returns == .data)
        // The class name, after the context's and the class's presence bytes and the tag: length, then "genp".
        #expect(Array(bytes[0..<11]) == [0, 2, 1, 0, 0, 0, 4] + Array("genp".utf8))
    }

    /// An account an add left out is Apple's default, empty data, in a result: tag 1 (data) and a zero length, a
    /// value the decoder of every release reads. The encoding of values is unchanged, so a daemon of an earlier
    /// release (whose results hold "" there) and a client of this one agree, and the other way round.
    @Test func anAccountLeftOutCrossesAsEmptyData() throws {
        try withService { service in
            let me = service.caller()
            let add = NewItem(
                itemClass: .genericPassword, attributes: [.service: .string("svc")], data: Array("s".utf8))
            guard case .added = try service.perform(.add(add), as: me) else {
                Issue.record("add")
                return
            }
            let search = ItemQuery(
                itemClass: .genericPassword, attributes: [.service: .string("svc"), .account: .string("")],
                returns: .attributes)
            guard case .found(let report) = try service.perform(.search(search), as: me) else {
                Issue.record("search")
                return
            }
            #expect(report.results.first?.attributes?[.account] == .data([]))
            let bytes = try ResponseCodec.encode(.success(.found(report)))
            let field: [UInt8] = [0, 0, 0, 4] + Array("acct".utf8) + [1, 0, 0, 0, 0]
            #expect(bytes.indices.contains { bytes[$0...].starts(with: field) })
            guard case .found(let decoded) = try ResponseCodec.decode(bytes) else {
                Issue.record("not found")
                return
            }
            #expect(decoded.results.first?.attributes?[.account] == .data([]))
            #expect(decoded.results.first?.attributes?[.service] == .string("svc"))
        }
    }
}
