import Foundation
import KeychainCore
import SecurityCLI

/// The backup reader: the input is the plaintext payload of a backup (the part the file seals). It is sealed
/// into a real backup file and restored into an empty keychain; whatever is restored is then listed by the
/// engine and by `security dump-keychain -d` and `find-*-password`, and deleted. Values the restore lets in
/// must not trap any of them.
extension FuzzTarget {
    static let backupReader = FuzzTarget(
        name: "backup-reader",
        summary: "restore of a backup whose payload is the input, then search, dump-keychain, find and delete"
    ) { bytes in
        let password = Secret(Array("fuzz".utf8))
        guard let file = try? FuzzEntryPoints.backupFile(payload: bytes, password: password, iterations: 1) else {
            return
        }
        let home = FuzzKeychain.makeDirectory("backup")
        defer { try? FileManager.default.removeItem(at: home) }
        let keychain = FuzzKeychain.open(home)
        defer { keychain.close() }
        let url = home.appendingPathComponent("fuzz.backup")
        guard FileManager.default.createFile(atPath: url.path, contents: Data(file)) else { return }
        do {
            let summary = try keychain.restore(from: url, password: password)
            fuzzNote("restored \(summary.itemCount) items")
        } catch {
            fuzzNote("restore failed: \(error)")
            return
        }
        for itemClass in [ItemClass.genericPassword, .internetPassword] {
            let query = ItemQuery(
                itemClass: itemClass, synchronizable: .any, limit: .all, returns: [.data, .attributes])
            _ = try? keychain.copyMatching(query)
        }
        let configuration = FuzzKeychain.configuration(home: home)
        for arguments in [
            ["dump-keychain", "-d"], ["find-generic-password", "-g"], ["find-internet-password", "-g"],
            ["find-generic-password", "-s", "nothing"], ["delete-generic-password"], ["delete-internet-password"],
        ] {
            let output = CapturedOutput()
            let runner = SecurityCommandRunner(
                source: .configuration(configuration), output: output, errors: output,
                passwords: FixedPasswordReader())
            fuzzNote("security \(arguments.joined(separator: " ")): \(runner.run(arguments: arguments)) \(output.text)")
        }
    }
}

/// Answers every password question with the same bytes.
struct FixedPasswordReader: PasswordReader {
    func readNewItemPassword() throws(PasswordReadError) -> [UInt8] { Array("fuzz".utf8) }
}
