import Foundation
import KeychainCore

/// `KeychainTestChild quota <uid>`: as `uid` (the caller must be root), unlocks new keychain homes until the
/// user's kernel key quota refuses one, deletes one home, and unlocks once more. Writes, one per line:
/// `before <keys>`, `homes <count>`, `full <status> <reason>`, `after-delete <status>` and, once every home is
/// cleaned up, `after <keys>` (the user's key count from /proc/key-users, which must be back where it began).
func runQuotaScenario(uid: uid_t) -> Never {
    guard setgid(gid_t(uid)) == 0, setuid(uid) == 0 else { fail("cannot become uid \(uid)") }
    let base = URL(fileURLWithPath: "/tmp/keychain-quota-\(getpid())-\(UUID().uuidString)", isDirectory: true)
    do {
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
    } catch { fail("cannot create \(base.path): \(error)") }
    defer { try? FileManager.default.removeItem(at: base) }
    let passcode = Secret(Array("1234".utf8))
    func open(_ name: String) throws -> Keychain {
        var configuration = KeychainConfiguration(
            home: base.appendingPathComponent(name, isDirectory: true),
            identity: CallerIdentity(applicationIdentifier: "T.app", accessGroups: ["T.app"]))
        configuration.passcodeDerivationTarget = 0.002
        return try Keychain(configuration: configuration)
    }
    func status(_ body: () throws -> Void) -> (Int32, String) {
        do { try body() } catch let error as KeychainError {
            return (error.status, (error.reason ?? "").replacingOccurrences(of: "\n", with: " "))
        } catch { return (1, "\(error)") }
        return (0, "")
    }
    func userKeys() -> Int {
        // Read to the end: String(contentsOfFile:) stops after 4 KiB of a /proc file, and this uid's line may be
        // past them on a machine with many key users.
        guard let handle = FileHandle(forReadingAtPath: "/proc/key-users") else { return -1 }
        defer { try? handle.close() }
        let text = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 4, fields[0] == "\(uid):" { return Int(fields[3].split(separator: "/")[0]) ?? -1 }
        }
        return 0
    }

    _ = try? open("warm-up")  // the kernel makes the user's own keyrings on first use
    let before = userKeys()
    emit("before \(before)")
    var homes: [String] = []
    var refusal: (Int32, String) = (0, "")
    for index in 0..<400 {
        let name = "home-\(index)"
        refusal = status { try open(name).setPasscode(passcode) }
        if refusal.0 != 0 { break }
        homes.append(name)
    }
    emit("homes \(homes.count)")
    emit("full \(refusal.0) \(refusal.1)")

    if let first = homes.first {
        try? FileManager.default.removeItem(at: base.appendingPathComponent(first))
        homes.removeFirst()
    }
    let retried = status { try open("after-delete").setPasscode(passcode) }
    emit("after-delete \(retried.0) \(retried.1)")
    homes.append("after-delete")

    for name in homes + ["home-\(homes.count + 1)"] { (try? open(name))?.simulateRestart() }
    var after = userKeys()
    let deadline = Date().addingTimeInterval(3)
    while after > before, Date() < deadline {
        Thread.sleep(forTimeInterval: 0.05)
        after = userKeys()
    }
    emit("after \(after)")
    exit(0)
}
