import Foundation
import KeychainCore
import KeychainDaemon
import KeychainRequests
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

    /// A socket in a directory anyone may write to could be anyone's: a daemon there running as another user
    /// (neither root nor this process's) is sent nothing, not even a hello, so no secret reaches it.
    @Test(.enabled(if: NobodyDaemon.isPossible, "needs root, the nobody account and setpriv"))
    func aDaemonOfAnotherUserWithItsSocketInASharedDirectoryIsNotTrusted() throws {
        let daemon = try NobodyDaemon(inASharedDirectory: true)
        let client = KeychainClient(service: DaemonKeychainService(socketPath: daemon.socketPath))
        let item = NewItem(
            itemClass: .genericPassword, attributes: [.service: .string("s"), .account: .string("a")],
            data: Array("a secret".utf8))
        var caught: KeychainError?
        do {
            try client.add(item)
        } catch let error as KeychainError {
            caught = error
        }
        #expect(caught?.status == -25291)
        #expect(caught?.reason?.contains("it runs as uid \(daemon.uid)") == true, "\(String(describing: caught))")
        #expect(caught?.localizedReason(in: .japanese)?.contains("信頼できません") == true)
        // In a directory of its own (nobody's, closed to others) the same daemon is trusted: its own refusal comes.
        let own = try NobodyDaemon()
        do {
            try KeychainClient(service: DaemonKeychainService(socketPath: own.socketPath)).add(item)
        } catch let error as KeychainError {
            #expect(error.status == ErrorReply.missingEntitlement, "\(error)")
        }
    }

    @Test func theDirectoryOfASocketPathIsWhereItsNameIs() {
        #expect(DaemonTrust.directory(of: "/run/keychaind/socket") == "/run/keychaind")
        #expect(DaemonTrust.directory(of: "/socket") == "/")
        #expect(DaemonTrust.directory(of: "socket") == ".")
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
