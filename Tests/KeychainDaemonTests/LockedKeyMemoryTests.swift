import Foundation
import KeychainCore
import KeychainRequests
import KeychainWire
import Testing

/// keychaind keeps the class keys in locked memory: its `VmLck` (reported by `status` as `locked-memory-kb`)
/// grows when a keychain's keys are unlocked and shrinks when class A locks.
@Suite(.serialized) struct LockedKeyMemoryTests {
    static func lockedKilobytes(_ daemon: DaemonProcess) throws -> Int {
        try #require(GroupCommitTests.statusFields(daemon)["locked-memory-kb"].flatMap { Int($0) })
    }

    @Test func theClassKeysAreInLockedMemoryAndClassAsGoWhenItLocks() throws {
        let daemon = try DaemonProcess()
        let client = KeychainClient(service: DaemonKeychainService(socketPath: daemon.socketPath))
        try client.setPasscode(Secret(Array("1234".utf8)))
        try client.setGracePeriod(0)
        try client.add(DaemonEngineTests.item("held", accessibility: .whenUnlocked))
        let unlocked = try Self.lockedKilobytes(daemon)
        #expect(unlocked > 0)
        try client.lock()
        let locked = try Self.lockedKilobytes(daemon)
        #expect(locked < unlocked)
        try client.unlock(passcode: Secret(Array("1234".utf8)))
        #expect(try Self.lockedKilobytes(daemon) == unlocked)
    }
}
