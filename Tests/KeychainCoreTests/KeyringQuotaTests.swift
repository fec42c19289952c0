import Foundation
import KeychainTestSupport
import Testing

@testable import KeychainCore

#if canImport(Glibc)
    import Glibc
#endif

/// At the kernel's per-user key quota (200 keys for a user other than root), an unlock fails with a reason that
/// names the cause and the fix, the keys of deleted homes are given back first, and nothing is left behind.
/// Root's quota is far larger, so the child process runs as an otherwise unused uid.
@Suite struct KeyringQuotaTests {
    /// A uid of its own per test process, so that two runs at once do not share a quota.
    private static let spareUID = 60_000 + Int(getpid()) % 5_000

    /// Whether this process may become `spareUID`: it is root, and the uid exists in its user namespace.
    private static let canBecomeSpareUID: Bool = {
        guard getuid() == 0, let map = try? String(contentsOfFile: "/proc/self/uid_map", encoding: .utf8) else {
            return false
        }
        return map.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true).compactMap { Int($0) }
            return fields.count == 3 && (fields[0]..<(fields[0] + fields[2])).contains(spareUID)
        }
    }()

    @Test(.enabled(if: canBecomeSpareUID && kernelKeyringIsAvailable, "needs root (to become another uid), keyrings"))
    func anUnlockAtTheQuotaSaysWhyAndDeletedHomesGiveTheirKeysBack() throws {
        let uid = Self.spareUID
        let run = try ChildProcess.run(try TestChild.executable(), ["quota", "\(uid)"])
        let printed = run.outputText
        #expect(run.status == 0, "\(printed)")
        var lines: [String: String] = [:]
        for line in printed.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            lines[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        let full = try #require(lines["full"])
        #expect(full.hasPrefix("\(SecurityStatus.notAvailable) "), "\(full)")
        #expect(full.contains("quota"), "\(full)")
        #expect(full.contains("keyctl"), "\(full)")
        #expect(lines["after-delete"]?.hasPrefix("0") == true, "\(printed)")
        #expect(lines["before"] != nil && lines["after"] == lines["before"], "\(printed)")
        // Each unlocked home costs a handful of keys: a few dozen homes fit in 200.
        #expect((Int(lines["homes"] ?? "") ?? 0) >= 30, "\(printed)")
    }
}
