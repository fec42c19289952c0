import KeychainCore
import KeychainRequests
import Testing

@testable import KeychainDaemon

/// Since protocol 4 a passcode removal is answered with the count of items it deleted; a client of an older
/// protocol takes only done, and would report a removal that happened as a failure.
@Suite struct RemovalAnswerTests {
    private let removal = KeychainRequest.removePasscode(current: Secret(Array("1234".utf8)))

    /// "done", or the count of a deletion, or nil for any other answer.
    private func shape(_ response: KeychainResponse) -> String? {
        switch response {
        case .done: "done"
        case .deleted(let count): "deleted \(count)"
        default: nil
        }
    }

    @Test func aClientOfAnOlderProtocolIsAnsweredDone() {
        for version in [1, 2, 3] {
            let answer = EngineHandler.understood(.deleted(count: 2), to: removal, byProtocol: version)
            #expect(shape(answer) == "done", "protocol \(version)")
        }
        #expect(shape(EngineHandler.understood(.deleted(count: 2), to: removal, byProtocol: 4)) == "deleted 2")
    }

    @Test func otherAnswersPassAsTheyAre() {
        let deletion = KeychainRequest.delete(ItemQuery(itemClass: .genericPassword))
        #expect(shape(EngineHandler.understood(.deleted(count: 3), to: deletion, byProtocol: 3)) == "deleted 3")
    }
}
