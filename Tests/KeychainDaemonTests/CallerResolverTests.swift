import Foundation
import KeychainCore
import Testing

@testable import KeychainDaemon

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct CallerResolverTests {
    private let app = CallerIdentity(applicationIdentifier: "TEAM.app", accessGroups: ["TEAM.app"])
    private let digest = [UInt8](repeating: 0xAB, count: 32)

    private func resolver(_ rules: [PolicyRule], unknown: CallerResolver.UnknownCallers = .privateGroup)
        -> CallerResolver
    {
        CallerResolver(policy: PolicyDirectory(rules: rules), unknownCallers: unknown, trustedOwner: 0)
    }

    private func fileIdentity(_ path: String) -> FileIdentity? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    @Test func aUnitRuleGivesItsEntitlements() {
        let rules = [PolicyRule(unit: "api.service", identity: app, source: "api.plist")]
        let peer = PeerIdentity(uid: 1000, gid: 1000, pid: 5, systemdUnit: "api.service", executablePath: "/srv/api")
        #expect(resolver(rules).resolve(peer) == .allowed(app, basis: "api.plist"))
    }

    /// Files to stand for executables: a private group is given only for a path that names the file the process
    /// runs.
    private func executables(_ count: Int) -> [String] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "kd-resolver-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return (0..<count).map { index in
            let path = directory.appendingPathComponent("app-\(index)").path
            FileManager.default.createFile(atPath: path, contents: Data([UInt8(index)]))
            return path
        }
    }

    @Test func anExecutableRuleNeedsThePathAndTheBytes() {
        let files = executables(2)
        defer { try? FileManager.default.removeItem(atPath: (files[0] as NSString).deletingLastPathComponent) }
        let (allowed, elsewhere) = (files[0], files[1])
        let rules = [PolicyRule(executablePath: allowed, executableSHA256: digest, identity: app, source: "a")]
        let genuine = PeerIdentity(
            uid: 1000, gid: 1000, pid: 5, executablePath: allowed, executableSHA256: digest,
            executableFile: fileIdentity(allowed), codeFiles: [allowed])
        #expect(resolver(rules).resolve(genuine) == .allowed(app, basis: "a"))
        // An impostor at the allowed path with other bytes, and the genuine bytes copied elsewhere.
        var other = digest
        other[0] = 0
        let impostor = PeerIdentity(
            uid: 1000, gid: 1000, pid: 6, executablePath: allowed, executableSHA256: other,
            executableFile: fileIdentity(allowed))
        let copied = PeerIdentity(
            uid: 1000, gid: 1000, pid: 7, executablePath: elsewhere, executableSHA256: digest,
            executableFile: fileIdentity(elsewhere))
        for peer in [impostor, copied] {
            guard case .allowed(let identity, let basis) = resolver(rules).resolve(peer) else {
                Issue.record("refused")
                continue
            }
            #expect(basis == "private group")
            #expect(
                identity.accessGroups == [
                    CallerResolver.privateGroup(uid: 1000, executablePath: peer.executablePath ?? "")
                ])
            #expect(!identity.accessGroups.contains("TEAM.app"))
        }
        #expect(resolver(rules, unknown: .refuse).resolve(impostor) == .refused("no policy rule names it"))
    }

    /// In a user namespace of its own a process can mount any file at any path, and its own `/etc/ld.so.preload`
    /// over the genuine program: neither an executable rule nor a private group can name it. A unit can.
    @Test func aProcessInAUserNamespaceOfItsOwnIsNoExecutableAndHasNoPrivateGroup() {
        let files = executables(1)
        defer { try? FileManager.default.removeItem(atPath: (files[0] as NSString).deletingLastPathComponent) }
        let rules = [PolicyRule(executablePath: files[0], executableSHA256: digest, identity: app, source: "a")]
        let contained = PeerIdentity(
            uid: 1000, gid: 1000, pid: 5, executablePath: files[0], executableSHA256: digest,
            executableFile: fileIdentity(files[0]), sharesDaemonsUserNamespace: false)
        guard case .refused(let reason) = resolver(rules).resolve(contained) else {
            Issue.record("a process in its own user namespace was allowed")
            return
        }
        #expect(reason.contains("user namespace of its own"))
        let unitRules = [PolicyRule(unit: "api.service", identity: app, source: "api.plist")]
        let unit = PeerIdentity(
            uid: 1000, gid: 1000, pid: 5, systemdUnit: "api.service", sharesDaemonsUserNamespace: false)
        #expect(resolver(unitRules).resolve(unit) == .allowed(app, basis: "api.plist"))
    }

    /// The path `/proc/<pid>/exe` reports is the path in the process's mounts: a private group is derived from it
    /// only when keychaind finds the same file there.
    @Test func aPrivateGroupNeedsThePathToNameTheFileTheProcessRuns() {
        let files = executables(2)
        defer { try? FileManager.default.removeItem(atPath: (files[0] as NSString).deletingLastPathComponent) }
        let elsewhere = PeerIdentity(
            uid: 1000, gid: 1000, pid: 5, executablePath: files[0], executableFile: fileIdentity(files[1]))
        let nowhere = PeerIdentity(
            uid: 1000, gid: 1000, pid: 5, executablePath: files[0] + "-absent", executableFile: fileIdentity(files[1]))
        for peer in [elsewhere, nowhere] {
            guard case .refused(let reason) = resolver([]).resolve(peer) else {
                Issue.record("\(peer.executablePath ?? "") got a private group")
                continue
            }
            #expect(reason.contains("names another file for keychaind"))
        }
        // A path through a link names no program, though the link leads to the running file: `/proc/<pid>/exe`
        // gives none, so one is a path changed since.
        let link = files[0] + "-link"
        symlink(files[0], link)
        let linked = PeerIdentity(
            uid: 1000, gid: 1000, pid: 5, executablePath: link, executableFile: fileIdentity(files[0]))
        if case .allowed = resolver([]).resolve(linked) { Issue.record("a path through a link got a private group") }
        let running = PeerIdentity(
            uid: 1000, gid: 1000, pid: 5, executablePath: files[0], executableFile: fileIdentity(files[0]))
        guard case .allowed(_, let basis) = resolver([]).resolve(running) else {
            Issue.record("the process running the file at its path was refused")
            return
        }
        #expect(basis == "private group")
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/bin/env")))
    func aPathAloneIsTrustedWhereOnlyRootCanChangeIt() throws {
        let path = "/usr/bin/env"
        try #require(
            CallerResolver(policy: PolicyDirectory(rules: [])).untrustedPath(path, runningFile: fileIdentity(path))
                == nil)
        let rules = [PolicyRule(executablePath: path, identity: app, source: "env.plist")]
        let running = PeerIdentity(
            uid: 1000, gid: 1000, pid: 5, executablePath: path, executableFile: fileIdentity(path), codeFiles: [path])
        #expect(resolver(rules).resolve(running) == .allowed(app, basis: "env.plist"))
        // The path names another file than the one the process runs (replaced after it started).
        let stale = PeerIdentity(
            uid: 1000, gid: 1000, pid: 5, executablePath: path, executableFile: FileIdentity(device: 1, inode: 1))
        #expect(resolver(rules, unknown: .refuse).resolve(stale) == .refused("no policy rule names it"))
    }

    @Test func aPathAloneIsNotTrustedWhereOthersCanWrite() throws {
        // The temporary directory is writable by everyone (sticky or not): a path there vouches for nothing.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("keychaind-app-\(UUID().uuidString)")
            .path
        FileManager.default.createFile(atPath: path, contents: Data([1]))
        chmod(path, 0o755)
        defer { unlink(path) }
        let resolver = resolver(
            [PolicyRule(executablePath: path, identity: app, source: "tmp.plist")], unknown: .refuse)
        #expect(
            resolver.untrustedPath(path, runningFile: fileIdentity(path))?.contains("writable by group or others")
                == true)
        let peer = PeerIdentity(uid: 0, gid: 0, pid: 5, executablePath: path, executableFile: fileIdentity(path))
        #expect(resolver.resolve(peer) == .refused("no policy rule names it"))
    }

    /// A hash rule vouches for the program's bytes, not for libraries it loaded from where others could have put
    /// them (beside a program with `$ORIGIN` in its search path): with one, the rule is not applied, and says why.
    @Test(.enabled(if: ["/usr/bin/env", "/etc/passwd"].allSatisfy(FileManager.default.fileExists(atPath:))))
    func anExecutableRuleIsNotAppliedToAProgramThatLoadedCodeOthersCouldHavePut() throws {
        let program = "/usr/bin/env"
        let rules = [
            PolicyRule(executablePath: program, executableSHA256: digest, identity: app, source: "app.plist")
        ]
        // Run by root, who can replace the program: its private group does not depend on what it loaded.
        func peer(_ codeFiles: [String]?) -> PeerIdentity {
            PeerIdentity(
                uid: 0, gid: 0, pid: 5, executablePath: program, executableSHA256: digest,
                executableFile: fileIdentity(program), codeFiles: codeFiles)
        }
        // Root's closed directories (the program itself is the rule's to vouch for), and a library replaced by
        // an upgrade since it was loaded: only root could have put it there.
        for closed in [[program, "/etc/passwd"], ["/etc/passwd (deleted)"], []] {
            #expect(resolver(rules).resolve(peer(closed)) == .allowed(app, basis: "app.plist"), "\(closed)")
        }
        let writable = FileManager.default.temporaryDirectory.appendingPathComponent("kd-lib-\(UUID().uuidString)")
            .path
        FileManager.default.createFile(atPath: writable, contents: Data([1]))
        chmod(writable, 0o755)
        defer { unlink(writable) }
        let planted: [([String]?, String)] = [
            ([program, writable], "it loaded \(writable), and "),
            ([writable + " (deleted)"], "it loaded \(writable) (deleted), and "),
            (nil, "its memory map cannot be read"),
            // A memory file inherited across exec is mapped by the loader when `LD_PRELOAD` names it.
            (["/memfd:x (deleted)"], "it runs code from /memfd:x (deleted), a memory file any process of its user"),
        ]
        for (files, reason) in planted {
            guard case .allowed(let identity, let basis) = resolver(rules).resolve(peer(files)) else {
                Issue.record("\(String(describing: files)) was refused, not given a private group")
                continue
            }
            #expect(identity != app)
            #expect(basis.hasPrefix("private group (app.plist is not applied: \(reason)"), "\(basis)")
            guard case .refused(let why) = resolver(rules, unknown: .refuse).resolve(peer(files)) else {
                Issue.record("\(String(describing: files)) was allowed")
                continue
            }
            #expect(why.contains("app.plist is not applied: \(reason)"))
        }
        // A unit rule names no program: what the process loaded is not its business.
        let unitRules = [PolicyRule(unit: "api.service", identity: app, source: "api.plist")]
        let service = PeerIdentity(
            uid: 1000, gid: 1000, pid: 5, systemdUnit: "api.service", executablePath: program, codeFiles: [writable])
        #expect(resolver(unitRules).resolve(service) == .allowed(app, basis: "api.plist"))
    }

    /// A private group is the program's only while no other code runs in it: a root-installed program that loaded
    /// code its user could have put (a preloaded library that erased `LD_PRELOAD`) has none. A program its user
    /// can replace is not checked: its group is no stronger than that.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/bin/env")))
    func aRootInstalledProgramRunningCodeOfItsUserHasNoPrivateGroup() throws {
        let program = "/usr/bin/env"
        let writable = FileManager.default.temporaryDirectory.appendingPathComponent("kd-lib-\(UUID().uuidString)")
            .path
        FileManager.default.createFile(atPath: writable, contents: Data([1]))
        defer { unlink(writable) }
        func peer(uid: UInt32, _ codeFiles: [String]) -> PeerIdentity {
            PeerIdentity(
                uid: uid, gid: uid, pid: 5, executablePath: program, executableFile: fileIdentity(program),
                codeFiles: codeFiles)
        }
        guard case .allowed(_, "private group") = resolver([]).resolve(peer(uid: 1000, [program])) else {
            Issue.record("the genuine program got no private group")
            return
        }
        for files in [[program, writable], ["/memfd:x (deleted)"]] {
            guard case .refused(let reason) = resolver([]).resolve(peer(uid: 1000, files)) else {
                Issue.record("\(files) got a private group")
                continue
            }
            #expect(reason.hasPrefix("it runs code from a file its user could have put"), "\(reason)")
            #expect(reason.hasSuffix("so it has no private group"), "\(reason)")
        }
        // Root can replace /usr/bin/env itself.
        guard case .allowed(_, "private group") = resolver([]).resolve(peer(uid: 0, [program, writable])) else {
            Issue.record("a program its user can replace was checked")
            return
        }
    }

    @Test func loaderVariablesAreRefusedEvenForAKnownProgram() {
        let rules = [PolicyRule(unit: "api.service", identity: app, source: "api.plist")]
        let peer = PeerIdentity(
            uid: 1000, gid: 1000, pid: 5, systemdUnit: "api.service", executablePath: "/srv/api",
            loaderVariables: ["LD_PRELOAD"])
        #expect(
            resolver(rules).resolve(peer)
                == .refused("its environment sets LD_PRELOAD, which can load code into it"))
    }

    @Test func everySelectorOfARuleMustMatch() {
        let rules = [
            PolicyRule(
                unit: "api.service", executablePath: "/srv/api", executableSHA256: digest, identity: app, source: "a")
        ]
        let wrongUnit = PeerIdentity(
            uid: 1, gid: 1, pid: 5, systemdUnit: "other.service", executablePath: "/srv/api", executableSHA256: digest)
        #expect(resolver(rules, unknown: .refuse).resolve(wrongUnit) == .refused("no policy rule names it"))
        let snapRules = [
            PolicyRule(snap: "app", identity: app, source: "s"),
            PolicyRule(securityLabel: "prof", identity: app, source: "l"),
        ]
        let snap = PeerIdentity(uid: 1, gid: 1, pid: 5, securityLabel: "snap.app.cmd (enforce)")
        let profile = PeerIdentity(uid: 1, gid: 1, pid: 5, securityLabel: "prof (complain)")
        let flatpak = PeerIdentity(uid: 1, gid: 1, pid: 5, flatpakAppID: "org.example.App")
        #expect(resolver(snapRules).resolve(snap) == .allowed(app, basis: "s"))
        #expect(resolver(snapRules).resolve(profile) == .allowed(app, basis: "l"))
        #expect(
            resolver([PolicyRule(flatpakAppID: "org.example.App", identity: app, source: "f")]).resolve(flatpak)
                == .allowed(app, basis: "f"))
    }

    @Test func thePrivateGroupDependsOnTheUIDAndTheWholePath() {
        let group = CallerResolver.privateGroup(uid: 1000, executablePath: "/usr/bin/tool")
        #expect(group.hasPrefix("LOCAL.tool."))
        #expect(group.count == "LOCAL.tool.".count + 16)
        #expect(group == CallerResolver.privateGroup(uid: 1000, executablePath: "/usr/bin/tool"))
        #expect(group != CallerResolver.privateGroup(uid: 1001, executablePath: "/usr/bin/tool"))
        #expect(group != CallerResolver.privateGroup(uid: 1000, executablePath: "/usr/local/bin/tool"))
    }

    @Test func aCallerWithoutAnExecutableHasNoPrivateGroup() {
        let peer = PeerIdentity(uid: 1, gid: 1, pid: 5, executablePath: "/usr/bin/gone (deleted)")
        #expect(resolver([]).resolve(peer) == .refused("its executable is unknown, so it has no private group"))
    }
}
