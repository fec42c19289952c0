import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Policy directories for tests: made 0755 under a private directory of /tmp, owned by the test's uid (root in CI),
/// which the tests pass as the policy's owner. Not under `TMPDIR`: every directory above a policy must be root's or
/// the owner's and closed to others (or sticky, as /tmp is), which a `TMPDIR` of some other tree need not be.
enum PolicyFixtures {
    static let owner = getuid()

    static func makeDirectory() -> String {
        let base = URL(fileURLWithPath: "/tmp/keychaind-tests-\(UUID().uuidString)")
        let path = base.appendingPathComponent("apps.d").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        chmod(base.path, 0o755)
        chmod(path, 0o755)
        return path
    }

    @discardableResult
    static func write(_ dictionary: [String: Any], named name: String, in directory: String, mode: mode_t = 0o644)
        -> String
    {
        let path = directory + "/" + name
        let data =
            (try? PropertyListSerialization.data(fromPropertyList: dictionary, format: .xml, options: 0))
            ?? Data()
        FileManager.default.createFile(atPath: path, contents: data)
        chmod(path, mode)
        return path
    }

    static func entitlements(_ groups: [String], application: String) -> [String: Any] {
        ["keychain-access-groups": groups, "application-identifier": application]
    }
}
