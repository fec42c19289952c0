import Foundation
import Testing

@testable import KeychainDaemon

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct ProcessFactsTests {
    /// A process's `/.flatpak-info` is a file in a root the process may have made: the daemon reads it only when it
    /// is a regular file there, not through a link (which would lead into the daemon's own root, with its rights),
    /// and never waits on a FIFO planted in its place.
    @Test(.timeLimit(.minutes(1))) func theFlatpakInfoIsReadOnlyAsARegularFileOfTheProcesssRoot() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("kd-root-\(UUID())").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let info = "[Application]\nname=org.example.App\n"
        try info.write(toFile: root + "/info", atomically: true, encoding: .utf8)
        try info.write(toFile: root + "/.flatpak-info", atomically: true, encoding: .utf8)
        #expect(ProcFile.regularFile(".flatpak-info", in: root) == Array(info.utf8))
        try FileManager.default.removeItem(atPath: root + "/.flatpak-info")
        try FileManager.default.createSymbolicLink(atPath: root + "/.flatpak-info", withDestinationPath: root + "/info")
        #expect(ProcFile.regularFile(".flatpak-info", in: root) == nil)
        try FileManager.default.removeItem(atPath: root + "/.flatpak-info")
        #expect(mkfifo(root + "/.flatpak-info", 0o644) == 0)
        #expect(ProcFile.regularFile(".flatpak-info", in: root) == nil)
    }

    /// The files a process runs code from: executable file mappings only, each once, a path with spaces whole,
    /// a deleted file with the kernel's suffix; not the kernel's own mappings, anonymous ones or data files.
    @Test func theCodeFilesAreTheExecutableFileMappings() {
        let maps = """
            55d0c0a00000-55d0c0a20000 r--p 00000000 fd:01 131 /srv/my app/bin
            55d0c0a20000-55d0c0a80000 r-xp 00020000 fd:01 131 /srv/my app/bin
            7f10a0000000-7f10a0021000 rw-p 00000000 00:00 0
            7f10a1000000-7f10a1200000 r-xp 00028000 fd:01 912 /usr/lib/x86_64-linux-gnu/libc.so.6
            7f10a1200000-7f10a1250000 r--p 00228000 fd:01 912 /usr/lib/x86_64-linux-gnu/libc.so.6
            7f10a1300000-7f10a1320000 r-xp 00000000 fd:01 77 /home/u/plugins/libx.so (deleted)
            7f10a1400000-7f10a1500000 r--p 00000000 fd:01 55 /usr/lib/locale/locale-archive
            7f10a1600000-7f10a1601000 r-xp 00000000 00:01 9 /memfd:jit (deleted)
            7ffd5a1fe000-7ffd5a200000 r-xp 00000000 00:00 0                          [vdso]
            ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  [vsyscall]
            """
        #expect(
            ProcessFacts.codeFiles(maps: maps) == [
                "/srv/my app/bin", "/usr/lib/x86_64-linux-gnu/libc.so.6", "/home/u/plugins/libx.so (deleted)",
                "/memfd:jit (deleted)",
            ])
        #expect(ProcessFacts.codeFiles(maps: "").isEmpty)
    }

    @Test func theSystemUnitComesFromTheUnifiedHierarchy() {
        #expect(ProcessFacts.systemdUnit(cgroup: "0::/system.slice/api.service\n") == "api.service")
        #expect(ProcessFacts.systemdUnit(cgroup: "0::/system.slice/nginx.service/worker\n") == "nginx.service")
        #expect(ProcessFacts.systemdUnit(cgroup: "0::/\n") == nil)
        #expect(ProcessFacts.systemdUnit(cgroup: "") == nil)
    }

    @Test func aSubGroupOfADelegatedUnitIsThatUnit() {
        // A unit with delegation may create sub-groups named like another unit: it stays itself.
        let cgroup = "0::/system.slice/other.service/api.service\n"
        #expect(ProcessFacts.systemdUnit(cgroup: cgroup) == "other.service")
        #expect(
            ProcessFacts.systemdUnit(cgroup: "0::/user.slice/user-1000.slice/session-3.scope\n") == "session-3.scope")
        #expect(ProcessFacts.systemdUnit(cgroup: "0::/system.slice/custom/api.service\n") == nil)
    }

    @Test func aUsersOwnServiceManagerNamesNoIdentity() {
        let user = "0::/user.slice/user-1000.slice/user@1000.service/app.slice/api.service\n"
        #expect(ProcessFacts.systemdUnit(cgroup: user) == nil)
    }

    @Test func cgroupVersionOneUsesTheNamedSystemdHierarchy() {
        let cgroup = "4:memory:/x\n1:name=systemd:/system.slice/cron.service\n"
        #expect(ProcessFacts.systemdUnit(cgroup: cgroup) == "cron.service")
    }

    @Test func theFlatpakIDIsTheApplicationGroupsName() {
        let info = """
            [Instance]
            name=org.wrong.Instance
            [Application]
            runtime=runtime/org.gnome.Platform/x86_64/45
            name = org.example.App
            """
        #expect(ProcessFacts.flatpakAppID(info: info) == "org.example.App")
        #expect(ProcessFacts.flatpakAppID(info: "[Runtime]\nname=org.gnome.Platform\n") == nil)
    }

    @Test func theSecurityLabelIsTrimmedAndUnconfinedIsNone() {
        #expect(
            ProcessFacts.securityLabel(attribute: Array("snap.app.cmd (enforce)\n".utf8)) == "snap.app.cmd (enforce)")
        #expect(ProcessFacts.securityLabel(attribute: Array("unconfined\n".utf8)) == nil)
        #expect(ProcessFacts.securityLabel(attribute: [0]) == nil)
        let peer = PeerIdentity(uid: 1, gid: 1, pid: 2, securityLabel: "snap.app.cmd (enforce)")
        #expect(peer.snapName == "app")
    }

    /// What the daemon reads of a process is of one program: the process's environment opened first reads nothing
    /// once it has exec'd another, so an exec in the middle of identification is seen.
    @Test(.timeLimit(.minutes(1))) func anImageOfAProcessIsNoLongerCurrentOnceItExecs() throws {
        var gate: [Int32] = [0, 0]
        try #require(pipe(&gate) == 0)
        let arguments: [UnsafeMutablePointer<CChar>?] = (["/bin/sleep", "30"] as [String]).map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        let child = fork()
        if child == 0 {
            var byte: UInt8 = 0
            _ = read(gate[0], &byte, 1)
            execv("/bin/sleep", arguments)
            _exit(1)
        }
        defer { Self.stop(child, gate: gate) }
        let image = try #require(ProcessImage(directory: "/proc/\(child)", limit: 1 << 20))
        #expect(!image.environment.bytes.isEmpty)
        #expect(image.isCurrent)
        var go: UInt8 = 1
        #expect(write(gate[1], &go, 1) == 1)
        while Self.program(of: child)?.hasSuffix("/sleep") != true { usleep(5_000) }
        #expect(!image.isCurrent)
    }

    /// A process started with no environment at all shows nothing through its first descriptor either way: one
    /// that then execs a program with an environment is still seen.
    @Test(.timeLimit(.minutes(1))) func anImageOfAProcessWithoutEnvironmentSeesAnExecIntoOneWithIt() throws {
        var gate: [Int32] = [0, 0]
        try #require(pipe(&gate) == 0)
        let script = "read x; exec /usr/bin/env KEYCHAIN_TEST=1 /bin/sleep 30"
        let arguments: [UnsafeMutablePointer<CChar>?] =
            (["/bin/sh", "-c", script] as [String]).map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        let empty: [UnsafeMutablePointer<CChar>?] = [nil]
        let child = fork()
        if child == 0 {
            dup2(gate[0], 0)
            execve("/bin/sh", arguments, empty)
            _exit(1)
        }
        defer { Self.stop(child, gate: gate) }
        while Self.program(of: child).map({ $0.hasSuffix("sh") }) != true { usleep(5_000) }
        let image = try #require(ProcessImage(directory: "/proc/\(child)", limit: 1 << 20))
        #expect(image.environment.bytes.isEmpty)
        #expect(image.isCurrent)
        var newline: UInt8 = 10
        #expect(write(gate[1], &newline, 1) == 1)
        while Self.program(of: child)?.hasSuffix("/sleep") != true { usleep(5_000) }
        #expect(!image.isCurrent)
    }

    /// Kills and reaps a child of the test, and closes the pipe it waited on.
    private static func stop(_ child: pid_t, gate: [Int32]) {
        kill(child, SIGKILL)
        var status: Int32 = 0
        waitpid(child, &status, 0)
        close(gate[0])
        close(gate[1])
    }

    /// The program `pid` runs (`/proc/<pid>/exe`).
    private static func program(of pid: pid_t) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
    }

    @Test func loaderVariablesAreFoundOnlyWhenSet() {
        let environ = Array("PATH=/bin\0LD_PRELOAD=/tmp/x.so\0LD_LIBRARY_PATH=\0HOME=/root\0LD_AUDITX=1\0".utf8)
        #expect(ProcessFacts.loaderVariables(environ: environ) == ["LD_PRELOAD"])
        #expect(ProcessFacts.loaderVariables(environ: Array("LD_AUDIT=a.so".utf8)) == ["LD_AUDIT"])
        #expect(ProcessFacts.loaderVariables(environ: []) == [])
        // Variables that load code otherwise: OpenSSL's providers and engines, glibc's converters.
        let others = Array(
            "OPENSSL_CONF=/tmp/c.cnf\0OPENSSL_MODULES=/tmp\0OPENSSL_ENGINES=/tmp\0GCONV_PATH=/tmp\0".utf8)
        #expect(
            ProcessFacts.loaderVariables(environ: others) == [
                "OPENSSL_CONF", "OPENSSL_MODULES", "OPENSSL_ENGINES", "GCONV_PATH",
            ])
    }

    @Test func theStartTimeSkipsACommandNameWithParentheses() {
        let fields = (3...22).map { $0 == 22 ? "123456" : "0" }.joined(separator: " ")
        #expect(ProcessFacts.startTime(stat: "42 (odd) name) ) " + fields) == 123_456)
        #expect(ProcessFacts.startTime(stat: "42 (short) 0 0") == nil)
        #expect(ProcessFacts.startTime(stat: "garbage") == nil)
    }

    @Test func aFileLongerThanTheLimitIsToldApart() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("keychaind-\(UUID().uuidString)").path
        FileManager.default.createFile(atPath: path, contents: Data(repeating: 0x41, count: 10_000))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let short = try #require(ProcFile.readWhole(path, limit: 9_999))
        #expect(short.bytes.count == 9_999 && !short.isWhole)
        let whole = try #require(ProcFile.readWhole(path, limit: 10_000))
        #expect(whole.bytes.count == 10_000 && whole.isWhole)
        #expect(ProcFile.readWhole("/nonexistent/keychaind", limit: 10) == nil)
    }
}
