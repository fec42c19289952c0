import Foundation
import KeychainCore
import Testing

@testable import KeychainDaemon

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct PolicyDirectoryTests {
    @Test func aRuleMapsAUnitToItsEntitlements() throws {
        let directory = PolicyFixtures.makeDirectory()
        PolicyFixtures.write(
            [
                "Unit": "api.service",
                "Entitlements": PolicyFixtures.entitlements(["TEAM.shared"], application: "TEAM.api"),
            ],
            named: "api.plist", in: directory)
        let policy = PolicyDirectory.load(directory, owner: PolicyFixtures.owner)
        #expect(policy.problems == [])
        let rule = try #require(policy.rules.first)
        #expect(rule.unit == "api.service")
        #expect(
            rule.identity
                == CallerIdentity(applicationIdentifier: "TEAM.api", accessGroups: ["TEAM.shared", "TEAM.api"]))
        #expect(rule.source == directory + "/api.plist")
    }

    @Test func filesAreReadInNameOrderAndOthersIgnored() {
        let directory = PolicyFixtures.makeDirectory()
        for name in ["b.plist", "a.plist", "notes.txt", ".hidden.plist"] {
            PolicyFixtures.write(
                [
                    "FlatpakID": "org.example.\(name.prefix(1))",
                    "Entitlements": PolicyFixtures.entitlements([], application: "T.x"),
                ],
                named: name, in: directory)
        }
        let policy = PolicyDirectory.load(directory, owner: PolicyFixtures.owner)
        #expect(policy.rules.map(\.flatpakAppID) == ["org.example.a", "org.example.b"])
    }

    @Test func aFileWritableByOthersIsIgnoredWithItsReason() {
        let directory = PolicyFixtures.makeDirectory()
        let path = PolicyFixtures.write(
            ["Unit": "api.service", "Entitlements": PolicyFixtures.entitlements(["T.a"], application: "T.a")],
            named: "api.plist", in: directory, mode: 0o666)
        let policy = PolicyDirectory.load(directory, owner: PolicyFixtures.owner)
        #expect(policy.rules.isEmpty)
        #expect(policy.problems == ["\(path) is ignored: it is writable by group or others"])
    }

    @Test(.enabled(if: getuid() == 0, "changing a file's owner needs root"))
    func aFileOwnedBySomeoneElseIsIgnored() {
        let directory = PolicyFixtures.makeDirectory()
        let path = PolicyFixtures.write(
            ["Unit": "api.service", "Entitlements": PolicyFixtures.entitlements(["T.a"], application: "T.a")],
            named: "api.plist", in: directory)
        chown(path, 4242, 4242)
        let policy = PolicyDirectory.load(directory, owner: 0)
        #expect(policy.rules.isEmpty)
        #expect(policy.problems == ["\(path) is ignored: it is owned by uid 4242, not 0"])
    }

    @Test func aDirectoryWritableByOthersIsNotAPolicy() {
        let directory = PolicyFixtures.makeDirectory()
        PolicyFixtures.write(
            ["Unit": "api.service", "Entitlements": PolicyFixtures.entitlements(["T.a"], application: "T.a")],
            named: "api.plist", in: directory)
        chmod(directory, 0o777)
        let policy = PolicyDirectory.load(directory, owner: PolicyFixtures.owner)
        #expect(policy.rules.isEmpty)
        #expect(policy.problems.first?.contains("writable by group or others") == true)
    }

    /// A directory above the policy's that someone else may write to could have the policy's renamed away and
    /// another put in its place: the policy is then ignored, unless that directory is sticky (as /tmp), where no
    /// one may rename or remove another's entry.
    @Test func aPolicyUnderADirectoryOthersMayWriteToIsNotAPolicy() {
        let directory = PolicyFixtures.makeDirectory()
        PolicyFixtures.write(
            ["Unit": "api.service", "Entitlements": PolicyFixtures.entitlements(["T.a"], application: "T.a")],
            named: "api.plist", in: directory)
        let parent = (directory as NSString).deletingLastPathComponent
        chmod(parent, 0o777)
        let refused = PolicyDirectory.load(directory, owner: PolicyFixtures.owner)
        #expect(refused.rules.isEmpty)
        #expect(refused.problems == ["\(parent), above the policy, is writable by group or others"])
        chmod(parent, 0o1777)
        #expect(PolicyDirectory.load(directory, owner: PolicyFixtures.owner).rules.count == 1)
    }

    @Test func aSymbolicLinkIsNotFollowed() throws {
        let directory = PolicyFixtures.makeDirectory()
        let target = PolicyFixtures.write(
            ["Unit": "api.service", "Entitlements": PolicyFixtures.entitlements(["T.a"], application: "T.a")],
            named: "real.data", in: directory)
        try FileManager.default.createSymbolicLink(atPath: directory + "/link.plist", withDestinationPath: target)
        let policy = PolicyDirectory.load(directory, owner: PolicyFixtures.owner)
        #expect(policy.rules.isEmpty)
        #expect(policy.problems.count == 1)
    }

    @Test func malformedRulesAreIgnoredWithPreciseReasons() {
        let directory = PolicyFixtures.makeDirectory()
        let entitlements = PolicyFixtures.entitlements(["T.a"], application: "T.a")
        let cases: [(String, [String: Any], String)] = [
            ("a.plist", ["Entitlements": entitlements], "it names no process (no selector)"),
            ("b.plist", ["Unit": "x.service", "Entitlement": entitlements], "unknown keys Entitlement"),
            (
                "c.plist", ["Executable": "/bin/sh", "SHA256": "abc", "Entitlements": entitlements],
                "SHA256 is not 64 hexadecimal digits"
            ),
            ("d.plist", ["Executable": "bin/sh", "Entitlements": entitlements], "Executable is not an absolute path"),
            ("e.plist", ["Unit": "x.service"], "Entitlements is missing or not a dictionary"),
            ("f.plist", ["Unit": 3, "Entitlements": entitlements], "Unit is not a string"),
            (
                "g.plist", ["SHA256": String(repeating: "a", count: 64), "Entitlements": entitlements],
                "SHA256 needs an Executable"
            ),
        ]
        for (name, dictionary, _) in cases { PolicyFixtures.write(dictionary, named: name, in: directory) }
        FileManager.default.createFile(atPath: directory + "/h.plist", contents: Data("bplist00garbage".utf8))
        let policy = PolicyDirectory.load(directory, owner: PolicyFixtures.owner)
        #expect(policy.rules.isEmpty)
        let expected =
            cases.map { "\(directory)/\($0.0) is ignored: \($0.2)" }
            + ["\(directory)/h.plist is ignored: it is not an XML property list dictionary"]
        #expect(policy.problems == expected)
    }

    @Test func aMissingDirectoryIsAnEmptyPolicy() {
        let policy = PolicyDirectory.load("/nonexistent/keychaind/apps.d")
        #expect(policy.rules.isEmpty && policy.problems.isEmpty)
    }
}
