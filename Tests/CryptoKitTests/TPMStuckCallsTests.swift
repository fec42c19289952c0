import Foundation
import Testing

@testable import TPMEnclave

/// While calls given up wait for a TPM, new connections to it are refused, but not forever: one attempt is let
/// through once the latest was given up long enough ago (a network TPM may answer again while a call on a vanished
/// peer never returns), and none at all while the most threads allowed wait.
@Suite struct TPMStuckCallsTests {
    /// Stands for a worker whose thread is in a call.
    private final class Worker {}

    @Test func aRefusalLastsTheProbeIntervalAndTheCapHoldsPastIt() throws {
        let tcti = "swtpm:host=stuck-calls-test-\(UUID().uuidString)"
        let workers = (0..<TPMStuckCalls.mostStuck).map { _ in Worker() }
        defer { for worker in workers { TPMStuckCalls.remove(ObjectIdentifier(worker), tcti: tcti) } }
        #expect(TPMStuckCalls.refusal(tcti: tcti, probeAfter: 0.2) == nil)

        TPMStuckCalls.add(ObjectIdentifier(workers[0]), tcti: tcti)
        let refusal = try #require(TPMStuckCalls.refusal(tcti: tcti, probeAfter: 60))
        #expect(refusal.status == -25291)
        #expect(TPMStuckCalls.refusal(tcti: "swtpm:host=another-\(UUID().uuidString)", probeAfter: 60) == nil)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(TPMStuckCalls.refusal(tcti: tcti, probeAfter: 0.2) == nil, "no attempt is let through")

        for worker in workers.dropFirst() { TPMStuckCalls.add(ObjectIdentifier(worker), tcti: tcti) }
        Thread.sleep(forTimeInterval: 0.3)
        #expect(TPMStuckCalls.refusal(tcti: tcti, probeAfter: 0.2) != nil, "past the cap an attempt was let through")

        for worker in workers { TPMStuckCalls.remove(ObjectIdentifier(worker), tcti: tcti) }
        #expect(TPMStuckCalls.refusal(tcti: tcti, probeAfter: 60) == nil)
    }
}
