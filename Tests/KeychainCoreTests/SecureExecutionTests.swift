import Foundation
import KeychainTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A set-user-ID or set-group-ID program runs with an environment its caller chose: the keychain's variables would
/// let that caller pick the program's keychain home, its daemon, the helper it runs for prompts and the devices it
/// trusts. In secure execution (`AT_SECURE`) the configuration reads none of them.
@Suite(.serialized) struct SecureExecutionTests {
    static let chosen = [
        "KEYCHAIN_HOME": "/tmp/chosen-home", "KEYCHAIN_SOCKET": "/tmp/chosen-socket",
        "KEYCHAIN_AUTHENTICATE": "/tmp/chosen-helper", "KEYCHAIN_AUTHENTICATION": "simulated",
        "KEYCHAIN_TPM_TCTI": "swtpm:port=1", "HOME": "/tmp/chosen-user-home",
    ]

    /// The test child copied to a directory of its own, owned by root and group `group`, with `mode`.
    private func copiedChild(mode: mode_t, group: gid_t) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("secure-exec-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        chmod(directory.path, 0o755)
        let copy = directory.appendingPathComponent(TestChild.executableName)
        try FileManager.default.copyItem(at: try TestChild.executable(), to: copy)
        try #require(chown(copy.path, 0, group) == 0 && chmod(copy.path, mode) == 0)
        return copy
    }

    private func run(_ child: URL) throws -> [String] {
        let outcome = try ChildProcess.run(
            child, ["environment"] + Self.chosen.keys.sorted(), environment: Self.chosen)
        try #require(outcome.status == 0, "\(outcome.errorText)")
        return outcome.outputText.split(separator: "\n").map(String.init)
    }

    /// Whether set-user-ID and set-group-ID bits take effect in the temporary directory (not mounted `nosuid`).
    static var temporaryDirectoryHonoursSetID: Bool {
        var status = statvfs()
        return statvfs(FileManager.default.temporaryDirectory.path, &status) == 0
            && status.f_flag & UInt(ST_NOSUID) == 0
    }

    @Test(
        .enabled(if: getuid() == 0, "needs root to make a set-group-ID copy"),
        .enabled(if: temporaryDirectoryHonoursSetID, "the temporary directory is mounted nosuid"))
    func aSetGroupIDProgramReadsNoneOfItsCallersKeychainVariables() throws {
        let nobodyGroup: gid_t = 65534
        let plain = try copiedChild(mode: 0o755, group: nobodyGroup)
        defer { try? FileManager.default.removeItem(at: plain.deletingLastPathComponent()) }
        let setGroupID = try copiedChild(mode: 0o2755, group: nobodyGroup)
        defer { try? FileManager.default.removeItem(at: setGroupID.deletingLastPathComponent()) }

        // The control: an ordinary program reads them all.
        let ordinary = try run(plain)
        #expect(ordinary.first == "home=/tmp/chosen-home")
        #expect(ordinary.contains("KEYCHAIN_SOCKET=/tmp/chosen-socket"))

        let secure = try run(setGroupID)
        // The effective user's home (root's here), not the caller's HOME.
        let rootHome = String(cString: try #require(getpwuid(0)?.pointee.pw_dir))
        #expect(secure.first == "home=\(rootHome)/.local/share/keychain", "\(secure)")
        #expect(Array(secure.dropFirst()) == Self.chosen.keys.sorted(), "\(secure)")
    }
}
