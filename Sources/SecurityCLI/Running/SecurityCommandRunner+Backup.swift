import Foundation
import KeychainCore
import KeychainRequests

extension SecurityCommandRunner {
    /// `backup-keychain FILE`: writes the migratable items, in every access group, to a new encrypted file, and
    /// says how many went in and how many stay on this machine. The password is asked for twice.
    func backupKeychain(_ command: BackupFileCommand, keychain: KeychainClient) throws(CommandFailure) {
        let operation = "backup-keychain"
        try refuseWhenConfined(operation, KeychainError.Reason("reads the items of every access group"))
        let password = try secret(command.password, prompt: .newBackup, operation: operation)
        let url = URL(fileURLWithPath: command.file)
        let summary = try perform(operation) { try keychain.backup(to: url.path, password: password) }
        if format.json {
            return writeCounts(summary.itemCount, summary.excludedCount, url.path, damaged: summary.damagedCount)
        }
        output.writeLine("\(Self.items(summary.itemCount)) written to \"\(url.path)\"")
        output.writeLine(
            "\(Self.items(summary.excludedCount)) left out (ThisDeviceOnly, access control or token: they never "
                + "leave this machine)")
        if summary.damagedCount > 0 {
            output.writeLine(
                "\(Self.items(summary.damagedCount, "damaged item")) left out (they no longer decrypt; "
                    + "dump-keychain names them)")
        }
    }

    /// `restore-keychain FILE`: restores every item of the backup or, on any failure (wrong password, damaged
    /// file, an item that exists already), none.
    func restoreKeychain(_ command: BackupFileCommand, keychain: KeychainClient) throws(CommandFailure) {
        let operation = "restore-keychain"
        try refuseWhenConfined(operation, KeychainError.Reason("writes items into every access group"))
        let password = try secret(command.password, prompt: .existingBackup, operation: operation)
        let url = URL(fileURLWithPath: command.file)
        let summary = try perform(operation) { try keychain.restore(from: url.path, password: password) }
        if format.json { return writeCounts(summary.itemCount, summary.excludedCount, url.path) }
        output.writeLine("\(Self.items(summary.itemCount)) restored from \"\(url.path)\"")
        output.writeLine(
            "\(Self.items(summary.excludedCount)) left out of the backup when it was made (they never leave their "
                + "machine)")
    }

    /// A backup or restore acts on every access group, for the keychain's owner: `-G` and `--entitlements`,
    /// which make a command act as an app, cannot narrow it, so they refuse it before the keychain is opened
    /// (through keychaind, before owner rights are asked for), as `KEYCHAIN_ENTITLEMENTS` does.
    func refuseIdentityOptions(_ command: SecurityCommand, _ identity: IdentityOptions) throws(CommandFailure) {
        let (operation, what): (String, KeychainError.Reason)
        switch command {
        case .backupKeychain: (operation, what) = ("backup-keychain", "reads the items of every access group")
        case .restoreKeychain: (operation, what) = ("restore-keychain", "writes items into every access group")
        default: return
        }
        let option =
            identity.entitlementsFile != nil ? "--entitlements" : identity.accessGroup != nil ? "-G" : nil
        guard let option else { return }
        throw CommandFailure(
            operation,
            KeychainError.missingEntitlement.because(
                "\(operation) \(what) for the keychain's owner, and \(option) would make it act as an app; run it "
                    + "without -G and --entitlements"))
    }

    /// A backup or restore acts on every access group, which no identity confined by `KEYCHAIN_ENTITLEMENTS`
    /// may: refused before anything is read or written.
    private func refuseWhenConfined(_ operation: String, _ what: KeychainError.Reason) throws(CommandFailure) {
        guard source.confinesIdentity else { return }
        throw CommandFailure(
            operation,
            KeychainError.missingEntitlement.because(
                "\(operation) \(what), and KEYCHAIN_ENTITLEMENTS confines this command to its identity's groups; "
                    + "run it without KEYCHAIN_ENTITLEMENTS"))
    }

    /// `--json`: `{"file":…,"itemCount":N,"excludedCount":M}`.
    private func writeCounts(_ items: Int, _ excluded: Int, _ file: String, damaged: Int? = nil) {
        var object: [String: Any] = ["file": file, "itemCount": items, "excludedCount": excluded]
        if let damaged { object["damagedCount"] = damaged }
        output.writeLine(JSONText.encode(object))
    }

    /// What `set-keychain-password --remove` deleted with the passcode; `--json`: `{"deletedCount":N}`.
    func writeDeletedWithPasscode(_ count: Int) {
        if format.json { return output.writeLine(JSONText.encode(["deletedCount": count])) }
        output.writeLine(
            "\(Self.items(count)) deleted with the passcode (WhenPasscodeSetThisDeviceOnly, or only the passcode "
                + "opened them)")
    }

    /// "1 item", "3 items".
    private static func items(_ count: Int, _ noun: String = "item") -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
