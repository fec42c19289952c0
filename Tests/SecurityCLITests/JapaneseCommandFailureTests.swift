import Foundation
import KeychainCore
import KeychainMessages
import Testing

@testable import SecurityCLI

/// The reasons the `security` command writes itself (certificate and key files, the backup verbs under
/// `KEYCHAIN_ENTITLEMENTS`) follow the locale as the keychain's do; the English lines, statuses and exit codes
/// stay as they are.
@Suite struct JapaneseCommandFailureTests {
    /// A file in a fresh temporary directory, removed with it.
    private final class TemporaryFile {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ja-\(UUID().uuidString)")
        let url: URL

        init(_ name: String, _ contents: String) throws {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            url = directory.appendingPathComponent(name)
            try Data(contents.utf8).write(to: url)
        }

        deinit { try? FileManager.default.removeItem(at: directory) }
    }

    @Test func aCertificateFileWithoutACertificateIsExplainedInTheLocalesLanguage() throws {
        let file = try TemporaryFile("notes.txt", "not a certificate\n")
        let harness = CommandHarness()
        let english = harness.run(["verify-cert", "-c", file.url.path])
        #expect(english.exitCode == ExitCode.forStatus(SecurityStatus.decode))
        #expect(
            english.errors.hasSuffix(
                "\nsecurity: \(file.url.path) holds no certificate (PEM or DER)\n"))
        harness.language = .japanese
        let japanese = harness.run(["verify-cert", "-c", file.url.path])
        #expect(japanese.exitCode == english.exitCode)
        #expect(japanese.errors.hasPrefix("security: SecTrustEvaluateWithError: "))
        #expect(
            japanese.errors.hasSuffix(
                "\nsecurity: \(file.url.path) には証明書（PEM または DER）がありません\n"))
    }

    @Test func anUnreadKeyBlockOfImportIsExplainedInJapanese() throws {
        let file = try TemporaryFile(
            "key.pem", "-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----\n")
        let harness = CommandHarness()
        harness.language = .japanese
        let run = harness.run(["import", file.url.path])
        #expect(run.exitCode == ExitCode.forStatus(SecurityStatus.unimplemented))
        #expect(
            run.errors.contains(
                "\nsecurity: EC PRIVATE KEY ブロックはここでは読み込めません。"
                    + "`openssl pkcs8 -topk8 -nocrypt` で鍵を変換するか、PKCS#12 ファイルを読み込んでください\n"))
        // JSON is for programs: its reason stays English.
        let json = harness.run(["--json", "import", file.url.path])
        #expect(json.output.contains("\"reason\":\"EC PRIVATE KEY blocks are not read here"))
    }

    @Test func theBackupVerbsRefusalUnderKeychainEntitlementsFollowsTheLocale() throws {
        let entitlements = try TemporaryFile(
            "app.entitlements",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>keychain-access-groups</key><array><string>TEAM9.shared</string></array>
            </dict></plist>
            """)
        let harness = CommandHarness()
        let backup = entitlements.directory.appendingPathComponent("backup").path
        func run(_ arguments: [String], in language: MessageLanguage) -> CommandHarness.Run {
            let variables = [
                "KEYCHAIN_HOME": harness.home.path, "KEYCHAIN_AUTHENTICATION": "simulated",
                "KEYCHAIN_ENTITLEMENTS": entitlements.url.path,
            ]
            let output = CapturedOutput()
            let errors = CapturedOutput()
            let runner = SecurityCommandRunner(
                source: .environment(EnvironmentVariables(variables)), output: output, errors: errors,
                passwords: FixedPasswordReader(password: nil), language: language)
            let code = runner.run(arguments: arguments)
            return CommandHarness.Run(exitCode: code, output: output.text, errors: errors.text)
        }
        let english = run(["backup-keychain", "-p", "pw", backup], in: .english)
        #expect(english.exitCode == ExitCode.forStatus(SecurityStatus.missingEntitlement))
        #expect(
            english.errors.hasSuffix(
                "\nsecurity: backup-keychain reads the items of every access group, and KEYCHAIN_ENTITLEMENTS confines "
                    + "this command to its identity's groups; run it without KEYCHAIN_ENTITLEMENTS\n"))
        let japanese = run(["backup-keychain", "-p", "pw", backup], in: .japanese)
        #expect(japanese.exitCode == english.exitCode)
        #expect(
            japanese.errors.hasSuffix(
                "\nsecurity: backup-keychain はすべてのアクセスグループの項目を読むため、KEYCHAIN_ENTITLEMENTS で"
                    + "アイデンティティのグループに限られたこのコマンドでは実行できません。"
                    + "KEYCHAIN_ENTITLEMENTS を外して実行してください\n"))
        let restore = run(["restore-keychain", "-p", "pw", backup], in: .japanese)
        #expect(restore.exitCode == english.exitCode)
        #expect(restore.errors.contains("restore-keychain はすべてのアクセスグループに項目を書き込むため、"))
        #expect(!FileManager.default.fileExists(atPath: backup))
    }
}
