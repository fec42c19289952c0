import Foundation
import KeychainCore

/// `protection-loop`: for n = 0, 1, … until killed, runs on the item "<prefix>-<n>" (service "kill") and on the
/// keychain every kind of change that rewrites keys or files, announcing each before it starts and
/// acknowledging it once it returned success:
///
///     begin|ack add ACCOUNT SECRET          add (WhenUnlocked)
///     begin|ack update ACCOUNT SECRET       new secret
///     begin|ack acl ACCOUNT                 access control: application password "app-pw" (re-seals the secret)
///     begin|ack passcode NEW                passcode change (from the current one)
///     begin|ack lock
///     begin|ack backup FILE COUNT           backup to FILE (password "backup-pw"); COUNT items went in
///     begin|ack restore FILE HOME COUNT     restore of FILE into the empty keychain HOME
///     begin|ack unlock NEW
///
/// The backup and the restore run while locked (class A stays available for the grace period), so that kills
/// during them find a locked keychain.
/// The test that kills it checks that every acknowledged change survived and nothing else half happened.
struct ProtectionLoop {
    static let service = "kill"
    static let applicationPassword = Array("app-pw".utf8)
    static let backupPassword = Secret(Array("backup-pw".utf8))

    let keychain: Keychain
    let configuration: KeychainConfiguration
    let prefix: String
    let work: URL
    var passcode: String

    mutating func run() {
        let parent = getppid()
        for index in 0..<1_000_000 where getppid() == parent {
            let account = "\(prefix)-\(index)"
            step("add \(account) v1:\(account)") {
                try keychain.add(
                    NewItem(
                        itemClass: .genericPassword,
                        attributes: [.service: .string(Self.service), .account: .string(account)],
                        accessibility: .whenUnlocked, data: Array("v1:\(account)".utf8)))
            }
            step("update \(account) v2:\(account)") {
                try keychain.update(Self.query(account), with: ItemChanges(data: Array("v2:\(account)".utf8)))
            }
            step("acl \(account)") {
                let control = AccessControlPolicy(accessibility: .whenUnlocked, flags: .applicationPassword)
                try keychain.update(
                    Self.query(account), with: ItemChanges(accessControl: control),
                    context: Self.applicationPasswordContext())
            }
            let next = "\(prefix)-pc-\(index)"
            step("passcode \(next)") {
                try keychain.setPasscode(Secret(Array(next.utf8)), current: Secret(Array(passcode.utf8)))
            }
            passcode = next
            step("lock") { try keychain.lock() }
            let file = work.appendingPathComponent("\(account).backup")
            var backedUp = 0
            // swift-format-ignore: OnlyOneTrailingClosureArgument
            step("backup \(file.path)", acknowledging: { "\(backedUp)" }) {
                backedUp = try keychain.backup(to: file, password: Self.backupPassword).itemCount
            }
            let restoredHome = work.appendingPathComponent("\(account)-restored", isDirectory: true)
            var restored = 0
            // swift-format-ignore: OnlyOneTrailingClosureArgument
            step("restore \(file.path) \(restoredHome.path)", acknowledging: { "\(restored)" }) {
                var target = configuration
                target.home = restoredHome
                let other = try Keychain(configuration: target)
                defer { other.close() }
                restored = try other.restore(from: file, password: Self.backupPassword).itemCount
            }
            step("unlock \(next)") { try keychain.unlock(passcode: Secret(Array(next.utf8))) }
        }
    }

    static func query(_ account: String) -> ItemQuery {
        ItemQuery(
            itemClass: .genericPassword, attributes: [.service: .string(service), .account: .string(account)],
            limit: .all)
    }

    static func applicationPasswordContext() -> AuthenticationContext {
        let context = AuthenticationContext()
        context.setApplicationPassword(applicationPassword)
        return context
    }

    /// Announces `operation`, runs it, and acknowledges it (with what `acknowledging` adds) once it succeeded.
    private func step(_ operation: String, acknowledging extra: () -> String = { "" }, _ body: () throws -> Void) {
        emit("begin \(operation)")
        do { try body() } catch { fail("\(operation) failed: \(error)") }
        let suffix = extra()
        emit("ack \(operation)" + (suffix.isEmpty ? "" : " \(suffix)"))
    }
}
