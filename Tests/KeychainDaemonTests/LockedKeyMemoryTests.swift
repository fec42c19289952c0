import Foundation
import KeychainCore
import KeychainRequests
import KeychainWire
import SystemCalls
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// keychaind keeps the class keys in locked memory: its `VmLck` (reported by `status` as `locked-memory-kb`)
/// grows when a keychain's keys are unlocked and shrinks when class A locks.
@Suite(.serialized) struct LockedKeyMemoryTests {
    static func lockedKilobytes(_ daemon: DaemonProcess) throws -> Int {
        try #require(GroupCommitTests.statusFields(daemon)["locked-memory-kb"].flatMap { Int($0) })
    }

    @Test func theClassKeysAreInLockedMemoryAndClassAsGoWhenItLocks() throws {
        let daemon = try DaemonProcess()
        let client = KeychainClient(service: DaemonKeychainService(socketPath: daemon.socketPath))
        try daemon.ownerClient().setPasscode(Secret(Array("1234".utf8)))
        try daemon.ownerClient().setGracePeriod(0)
        try client.add(DaemonEngineTests.item("held", accessibility: .whenUnlocked))
        let unlocked = try Self.lockedKilobytes(daemon)
        #expect(unlocked > 0)
        try client.lock()
        let locked = try Self.lockedKilobytes(daemon)
        #expect(locked < unlocked)
        try client.unlock(passcode: Secret(Array("1234".utf8)))
        #expect(try Self.lockedKilobytes(daemon) == unlocked)
    }

    /// The class A keys leave the daemon's memory when the grace period ends, with no request for class A to
    /// notice the deadline: `status` asks for the lock state, which reads only class C once locked.
    @Test func classAsGoWhenTheGracePeriodEndsUnasked() throws {
        let daemon = try DaemonProcess()
        let client = KeychainClient(service: DaemonKeychainService(socketPath: daemon.socketPath))
        try daemon.ownerClient().setPasscode(Secret(Array("1234".utf8)))
        try daemon.ownerClient().setGracePeriod(1)
        try client.add(DaemonEngineTests.item("held", accessibility: .whenUnlocked))
        let unlocked = try Self.lockedKilobytes(daemon)
        try client.lock()
        #expect(try Self.lockedKilobytes(daemon) == unlocked)
        Thread.sleep(forTimeInterval: 1.5)
        #expect(try Self.lockedKilobytes(daemon) < unlocked)
    }
}

/// The class keys' pages as the kernel shows them in the daemon's `/proc/<pid>/smaps`: marked `dd`
/// (`MADV_DONTDUMP`, left out of core dumps) and `lo` (`mlock`, kept out of swap) while the keychain is unlocked,
/// and the pages of the class A keys unmapped once it locks.
@Suite(.serialized) struct ClassKeyPageTests {
    /// The pages (their addresses) of the daemon's mappings whose VmFlags hold all of `flags`.
    static func pages(of pid: Int32, flagged flags: Set<String>) throws -> Set<UInt64> {
        // Read to its end through read(2): Foundation's file reading stops at a /proc file's first block.
        let file = try SystemCalls.open("/proc/\(pid)/smaps", O_RDONLY)
        defer { SystemCalls.close(file) }
        let smaps = String(decoding: try SystemCalls.readAll(file), as: UTF8.self)
        var pages: Set<UInt64> = []
        var range: (start: UInt64, end: UInt64)?
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), !first.hasSuffix(":") {
                let bounds = first.split(separator: "-").compactMap { UInt64($0, radix: 16) }
                range = bounds.count == 2 ? (bounds[0], bounds[1]) : nil
            } else if fields.first == "VmFlags:", let current = range,
                flags.isSubset(of: Set(fields.dropFirst().map(String.init)))
            {
                for page in stride(from: current.start, to: current.end, by: 4096) { pages.insert(page) }
            }
        }
        return pages
    }

    @Test func theClassKeysPagesAreLeftOutOfDumpsAndLockedAndClassAsAreUnmappedWhenItLocks() throws {
        let daemon = try DaemonProcess()
        let client = KeychainClient(service: DaemonKeychainService(socketPath: daemon.socketPath))
        try daemon.ownerClient().setPasscode(Secret(Array("1234".utf8)))
        try daemon.ownerClient().setGracePeriod(0)
        try client.add(DaemonEngineTests.item("paged", accessibility: .whenUnlocked))
        let locked = try Self.pages(of: daemon.pid, flagged: ["lo"])
        let keys = try Self.pages(of: daemon.pid, flagged: ["dd", "lo"])
        // Every locked page is a key's, and it is left out of core dumps.
        #expect(!keys.isEmpty)
        #expect(keys == locked)
        try client.lock()
        let afterLock = try Self.pages(of: daemon.pid, flagged: ["dd", "lo"])
        #expect(afterLock.isSubset(of: keys))
        #expect(afterLock.count < keys.count)
        // The class A keys' pages are no longer mapped as keys (wiped, then unmapped).
        let gone = keys.subtracting(afterLock)
        #expect(gone.isDisjoint(with: try Self.pages(of: daemon.pid, flagged: ["dd"])))
        try client.unlock(passcode: Secret(Array("1234".utf8)))
        #expect(try Self.pages(of: daemon.pid, flagged: ["dd", "lo"]).count == keys.count)
    }
}
