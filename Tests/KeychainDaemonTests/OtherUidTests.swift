import Foundation
import SystemCalls
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A client of another uid, run with `setpriv` as a system user the test creates: the same app (same path, same
/// bytes, same policy rule) of two uids shares nothing, and the daemon's files are closed to the other uid.
@Suite(.serialized) struct OtherUidTests {
    /// The system user the tests drop to, created when absent.
    static let userName = "keychaind-test"

    /// The uid and gid of the test user, made with `useradd` if it does not exist yet.
    static func testUser() throws -> (uid: uid_t, gid: gid_t) {
        if let entry = getpwnam(userName) { return (entry.pointee.pw_uid, entry.pointee.pw_gid) }
        let useradd = Process()
        useradd.executableURL = URL(fileURLWithPath: "/usr/sbin/useradd")
        useradd.arguments = ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", userName]
        useradd.standardOutput = FileHandle.nullDevice
        useradd.standardError = FileHandle.nullDevice
        try useradd.run()
        useradd.waitUntilExit()
        // Another test run may have made it in the meantime: its entry is what counts.
        guard let entry = getpwnam(userName) else {
            throw DaemonTestError("useradd could not create \(userName) (status \(useradd.terminationStatus))")
        }
        return (entry.pointee.pw_uid, entry.pointee.pw_gid)
    }

    /// Runs `program` as the test user through `setpriv` (no supplementary groups); its `key=value` lines.
    static func runAs(
        _ user: (uid: uid_t, gid: gid_t), _ program: String, _ arguments: String..., socket: String
    ) throws -> [String: String] {
        try runClient(
            "/usr/bin/setpriv",
            ["--reuid=\(user.uid)", "--regid=\(user.gid)", "--clear-groups", program] + arguments, socket: socket
        ).fields
    }

    @Test(.enabled(if: getuid() == 0, "needs root: it creates a system user and drops to it with setpriv"))
    func aClientOfAnotherUidSeesNoneOfRootsItemsAndNoneOfItsFiles() throws {
        let user = try Self.testUser()
        #expect(user.uid != 0)
        let apps = try AppIsolationTests.Apps()
        let socket = apps.daemon.socketPath
        #expect(try apps.run(apps.appA, "add", "root-only", "secret-root")["status"] == "0")

        // The other uid runs the very same app, which the policy gives the same group: still nothing of root's.
        #expect(try Self.runAs(user, apps.appA, "get", "root-only", socket: socket)["status"] == "-25300")
        #expect(try Self.runAs(user, apps.appA, "delete", "root-only", socket: socket)["status"] == "-25300")
        #expect(try Self.runAs(user, apps.appA, "update", "root-only", "x", socket: socket)["status"] == "-25300")
        let reference = try #require(try apps.run(apps.appA, "ref", "root-only")["ref"])
        #expect(try Self.runAs(user, apps.appA, "get-ref", reference, socket: socket)["status"] == "-25300")
        #expect(try Self.runAs(user, apps.appA, "delete-ref", reference, socket: socket)["status"] == "-25300")

        // Its own items, even one of the same name, are its own; root sees none of them.
        #expect(try Self.runAs(user, apps.appA, "add", "user-only", "secret-user", socket: socket)["status"] == "0")
        #expect(try Self.runAs(user, apps.appA, "add", "root-only", "mine", socket: socket)["status"] == "0")
        #expect(try Self.runAs(user, apps.appA, "get", "root-only", socket: socket)["data"] == "mine")
        #expect(try apps.run(apps.appA, "get", "user-only")["status"] == "-25300")
        #expect(try apps.run(apps.appA, "get", "root-only")["data"] == "secret-root")
        let rootList = try runClient(apps.appA, ["list"], socket: socket).finish()
        #expect(rootList.contains("account=root-only") && !rootList.contains("account=user-only"))

        // Its keychain lives in <state>/<its uid>/, beside root's, both the daemon's alone.
        let state = apps.daemon.directory + "/state"
        let rootHome = state + "/0"
        let userHome = state + "/\(user.uid)"
        for home in [rootHome, userHome] {
            var status = stat()
            #expect(stat(home, &status) == 0, "\(home) missing")
            #expect(status.st_mode & 0o777 == 0o700)
            #expect(status.st_uid != user.uid)
            #expect(FileManager.default.fileExists(atPath: home + "/keychain.db"))
        }

        // Every file of root's keychain, and the directories above it, are closed to the other uid.
        let files = try FileManager.default.contentsOfDirectory(atPath: rootHome).map { rootHome + "/" + $0 }
        #expect(files.contains(rootHome + "/keychain.db"))
        for path in [state, rootHome, userHome, userHome + "/keychain.db"] + files {
            #expect(
                try Self.runAs(user, apps.appA, "open", path, socket: socket)["errno"] == String(EACCES),
                "\(path) was not refused")
        }
        // The check can fail: root itself opens them.
        #expect(try apps.run(apps.appA, "open", rootHome + "/keychain.db")["opened"] != nil)
    }

    /// A program in root's closed directories, run by another uid with a library that uid could have put (a
    /// preloaded one that erased `LD_PRELOAD` would look the same): no private group, so no program of the
    /// user takes the group that program's items are in. Without the library it has one.
    @Test(.enabled(if: getuid() == 0, "needs root: it creates a system user and drops to it with setpriv"))
    func aRootInstalledProgramWithItsUsersLibraryHasNoPrivateGroup() throws {
        let user = try Self.testUser()
        let apps = try AppIsolationTests.Apps()
        let closed = "/var/lib/keychaind-test-" + UUID().uuidString.prefix(8).lowercased()
        try FileManager.default.createDirectory(atPath: closed, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: closed) }
        chmod(closed, 0o755)
        let program = closed + "/tool"
        try AppIsolationTests.Apps.install(try Data(contentsOf: URL(fileURLWithPath: apps.appA)), at: program)
        let planted = apps.directory + "/libplanted.so"
        try AppIsolationTests.Apps.install(
            try Data(contentsOf: URL(fileURLWithPath: try AppIsolationTests.harmlessLibrary())), at: planted)
        let socket = apps.daemon.socketPath
        #expect(try Self.runAs(user, program, "add", "mine", "x", socket: socket)["status"] == "0")
        let injected = try Self.runAs(user, program, "with-library", planted, "get", "mine", socket: socket)
        #expect(injected["status"] == "-34018" && injected["data"] == nil, "\(injected)")
        #expect(apps.daemon.waitForLog("it runs code from a file its user could have put: it loaded \(planted)"))
        #expect(try Self.runAs(user, program, "get", "mine", socket: socket)["data"] == "x")
    }

    /// `security apps show PATH` reads a file only as its asker could: not one in a directory closed to them,
    /// though readable by all and though the daemon could read it; the same words as for no file at all.
    @Test(.enabled(if: getuid() == 0, "needs root: it creates a system user and drops to it with setpriv"))
    func explainingAFileInADirectoryTheAskerCannotSearchIsRefused() throws {
        let user = try Self.testUser()
        let apps = try AppIsolationTests.Apps()
        let closed = apps.directory + "/closed"
        try FileManager.default.createDirectory(atPath: closed, withIntermediateDirectories: true)
        chmod(closed, 0o700)
        let hidden = closed + "/tool"
        FileManager.default.createFile(atPath: hidden, contents: Data("a low-entropy secret".utf8))
        chmod(hidden, 0o755)
        let socket = apps.daemon.socketPath
        let asUser = try Self.runAs(user, apps.appA, "explain", hidden, socket: socket)
        #expect(asUser["decision"] == "refused", "\(asUser)")
        #expect(asUser["sha256"] == nil)
        let absent = try Self.runAs(user, apps.appA, "explain", closed + "/none", socket: socket)
        #expect(absent["reason"] != nil && absent["reason"] == asUser["reason"])
        // Root may search the directory: it is told.
        #expect(try apps.run(apps.appA, "explain", hidden)["sha256"]?.count == 64)
        // The user's view of a file on an open path.
        #expect(try Self.runAs(user, apps.appA, "explain", apps.appB, socket: socket)["sha256"]?.count == 64)
        // A directory of root's group that only its group may search: the user is not in that group, and the
        // daemon, which does not know the asker's groups, counts the group's bit only with the others'.
        let groupOnly = apps.directory + "/group-only"
        try FileManager.default.createDirectory(atPath: groupOnly, withIntermediateDirectories: true)
        try AppIsolationTests.Apps.install(
            try Data(contentsOf: URL(fileURLWithPath: apps.appB)), at: groupOnly + "/tool")
        chmod(groupOnly, 0o710)
        #expect(try Self.runAs(user, apps.appA, "explain", groupOnly + "/tool", socket: socket)["sha256"] == nil)
        chmod(groupOnly, 0o711)
        #expect(try Self.runAs(user, apps.appA, "explain", groupOnly + "/tool", socket: socket)["sha256"]?.count == 64)
        // An access control list that denies the user a file whose mode bits let everyone read it: its group bits
        // are then the list's mask, so a file with a list is read for no one but its owner.
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/setfacl") {
            let listed = apps.directory + "/listed"
            try AppIsolationTests.Apps.install(try Data(contentsOf: URL(fileURLWithPath: apps.appB)), at: listed)
            #expect(try SystemCalls.run(["/usr/bin/setfacl", "-m", "u:\(Self.userName):---", listed]).status == 0)
            #expect(try Self.runAs(user, apps.appA, "explain", listed, socket: socket)["sha256"] == nil)
            #expect(try apps.run(apps.appA, "explain", listed)["sha256"]?.count == 64)
        }
        // `..` and links are resolved as the user's own lookup would: a path through the closed directory is
        // refused, with the same words whether or not the name in it exists.
        try FileManager.default.createDirectory(atPath: closed + "/sub", withIntermediateDirectories: true)
        let through = try Self.runAs(user, apps.appA, "explain", closed + "/sub/../../app-b", socket: socket)
        #expect(through["decision"] == "refused" && through["sha256"] == nil, "\(through)")
        let throughNothing = try Self.runAs(user, apps.appA, "explain", closed + "/none/../../app-b", socket: socket)
        #expect(throughNothing["reason"] != nil && throughNothing["reason"] == through["reason"])
        symlink(hidden, apps.directory + "/to-hidden")
        #expect(
            try Self.runAs(user, apps.appA, "explain", apps.directory + "/to-hidden", socket: socket)["sha256"] == nil)
        symlink("../" + (apps.directory as NSString).lastPathComponent + "/./app-b", apps.directory + "/to-b")
        let linked = try Self.runAs(user, apps.appA, "explain", apps.directory + "/to-b", socket: socket)
        #expect(linked["exe"] == apps.appB && linked["sha256"]?.count == 64, "\(linked)")
    }
}
