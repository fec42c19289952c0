import Foundation
import KeychainCore
import KeychainMessages
import KeychainTestSupport
import Testing

@testable import KeychainRequests

/// Reasons cross the wire as their template and typed arguments, so a client words them in its own language.
@Suite struct WireReasonTests {
    static let nested: KeychainError.Reason = {
        let inner: KeychainError.Reason = "\"\("bogus")\" is not a keychain item class"
        return " (\(inner) for \(AttributeKey.account))"
    }()

    static func roundTrip(_ error: KeychainError) throws -> KeychainError {
        let bytes = try ResponseCodec.encode(.failure(error))
        do {
            _ = try ResponseCodec.decode(bytes)
        } catch let decoded as KeychainError {
            return decoded
        }
        throw KeychainError.param.because("the failure did not come back")
    }

    @Test func aFailuresReasonComesBackWithItsTemplateAndArgumentsAndReadsInJapanese() throws {
        let sent = KeychainError.duplicateItem.because(Self.nested)
        let received = try Self.roundTrip(sent)
        #expect(received.status == -25299)
        #expect(received.explanation == sent.explanation)
        let japanese = try #require(received.explanation?.text(in: .japanese))
        #expect(japanese == Self.nested.text(in: .japanese))
        #expect(japanese != Self.nested.english)
        #expect(japanese.contains("はキーチェーン項目のクラスではありません"))
    }

    @Test func aStatusMessageArgumentIsWordedByTheClient() throws {
        let reason = KeychainError.Reason(statusMessage: -25300)
        let received = try Self.roundTrip(KeychainError.notAvailable.because(reason))
        #expect(received.explanation?.text(in: .japanese) == reason.text(in: .japanese))
        #expect(received.explanation?.english == reason.english)
    }

    @Test func aSearchReportsExplanationKeepsItsStructure() throws {
        let report = SearchReport(results: [], leftOut: 0, damaged: 1, explanation: Self.nested)
        let bytes = try ResponseCodec.encode(.success(.found(report)))
        guard case .found(let decoded) = try ResponseCodec.decode(bytes) else {
            Issue.record("not a search report")
            return
        }
        #expect(decoded.explanation == Self.nested)
    }

    /// A reason whose parts do not fit, one with an unknown argument tag, or one nested past the limit is
    /// errSecDecode (-26275).
    @Test func malformedReasonsAreDecodeErrors() throws {
        func failure(_ reason: (inout WireEncoder) -> Void) throws -> [UInt8] {
            var encoder = WireEncoder()
            encoder.byte(0)
            encoder.byte(1)
            encoder.int32(-25299)
            encoder.byte(1)
            reason(&encoder)
            return try encoder.finished()
        }
        let noLiterals = try failure { $0.array([String]()) { $0.string($1) } }
        let badTag = try failure {
            $0.array(["a", "b"]) { $0.string($1) }
            $0.byte(9)
        }
        var deep = KeychainError.Reason(verbatim: "x")
        for _ in 0..<40 { deep = "(\(deep))" }
        let tooDeep = try failure { $0.reason(deep) }
        for bytes in [noLiterals, badTag, tooDeep] {
            #expect(status { _ = try ResponseCodec.decode(bytes) } == -26275)
        }
    }
}
