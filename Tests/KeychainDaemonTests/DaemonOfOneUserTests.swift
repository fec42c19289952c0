import Foundation
import KeychainDaemon
import KeychainWire
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A keychaind that a user runs as themselves has no capability to read another user's `/proc` entries: it can
/// identify only processes of its own uid, and says so to a client of another uid it refuses.
@Suite struct DaemonOfOneUserTests {
    @Test(.enabled(if: NobodyDaemon.isPossible, "needs root, the nobody account and setpriv"))
    func aClientOfAnotherUIDIsRefusedWithWhatToDo() throws {
        let daemon = try NobodyDaemon()
        let client = try DaemonClient(socketPath: daemon.socketPath)
        let refusal = try #require(try client.negotiate())
        #expect(refusal.status == ErrorReply.missingEntitlement)
        #expect(refusal.reason.contains("keychaind runs as uid \(daemon.uid)"))
        #expect(refusal.reason.contains("identify only processes of its own uid"))
    }

    @Test func effectiveCapabilitiesAreReadFromProcessStatus() {
        let status =
            "Name:\tkeychaind\nCapInh:\t0000000000000000\nCapPrm:\t0000000000080004\nCapEff:\t0000000000080004\n"
        #expect(ProcessFacts.hasEffectiveCapability(2, status: status))
        #expect(ProcessFacts.hasEffectiveCapability(19, status: status))
        #expect(!ProcessFacts.hasEffectiveCapability(21, status: status))
        #expect(!ProcessFacts.hasEffectiveCapability(2, status: "Name:\tx\nCapEff:\t0000000000000000\n"))
        #expect(!ProcessFacts.hasEffectiveCapability(2, status: "Name:\tx\n"))
        #expect(ProcessFacts.hasEffectiveCapability(40, status: "CapEff:\t000001ffffffffff\n"))
    }
}
