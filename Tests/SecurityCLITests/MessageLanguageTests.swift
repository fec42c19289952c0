import Foundation
import KeychainCore
import KeychainMessages
import KeychainTestSupport
import Testing

@testable import SecurityCLI

/// The command's messages follow the locale (English or Japanese); statuses, exit codes, listings and JSON
/// do not.
@Suite struct MessageLanguageTests {
    @Test func localeVariablesChooseAsPOSIXDoes() {
        func language(_ variables: [String: String]) -> MessageLanguage {
            MessageLanguage.fromLocale { variables[$0] }
        }
        #expect(language([:]) == .english)
        #expect(language(["LANG": "ja_JP.UTF-8"]) == .japanese)
        #expect(language(["LANG": "ja"]) == .japanese)
        #expect(language(["LANG": "ja_JP.eucJP"]) == .japanese)
        #expect(language(["LANG": "en_US.UTF-8", "LC_MESSAGES": "ja_JP.UTF-8"]) == .japanese)
        #expect(language(["LANG": "ja_JP.UTF-8", "LC_MESSAGES": "C"]) == .english)
        #expect(language(["LC_ALL": "C", "LC_MESSAGES": "ja_JP.UTF-8"]) == .english)
        #expect(language(["LC_ALL": "", "LANG": "ja_JP.UTF-8"]) == .japanese)  // empty: not set
        #expect(language(["LANG": "fr_FR.UTF-8"]) == .english)  // no catalog: English
        #expect(language(["LANG": "jax"]) == .english)
    }

    @Test func japaneseMessagesKeepStatusesAndExitCodes() {
        let harness = CommandHarness()
        harness.language = .japanese
        let find = harness.run(["find-generic-password", "-s", "missing"])
        #expect(find.exitCode == 44)
        #expect(
            find.errors.hasPrefix(
                "security: SecKeychainSearchCopyNext: 指定した項目がキーチェーンに見つかりません。\n"))
        #expect(find.errors.contains("security: TEAM1.com.example.app として検索しました"))

        let error = harness.run(["error", "-25300", "-34018"])
        #expect(
            error.output == "Error: 0xFFFF9D2C -25300 指定した項目がキーチェーンに見つかりません。\n"
                + "Error: 0xFFFF7B1E -34018 必要なエンタイトルメントがありません。\n")
        // JSON is for programs: English, whatever the locale.
        #expect(
            harness.run(["--json", "error", "-25300"]).output.contains(
                "The specified item could not be found in the keychain."))
        let json = harness.run(["--json", "find-generic-password", "-s", "missing"])
        #expect(json.output.contains("\"message\":\"The specified item could not be found in the keychain.\""))

        let verb = harness.run(["create-keychain"])
        #expect(verb.exitCode == 64)
        #expect(verb.errors.hasPrefix("security: create-keychain には対応していません。"))
        let lock = harness.run(["lock-keychain"])
        #expect(lock.exitCode == 0)
        #expect(lock.errors.hasPrefix("security: キーチェーンにパスコードがないため"))
    }

    @Test func theKeychainsReasonFollowsTheLocale() {
        let harness = CommandHarness()
        #expect(harness.run(["add-generic-password", "-s", "svc", "-a", "acct", "-w", "pw"]).exitCode == 0)
        harness.language = .japanese
        let japanese = harness.run(["add-generic-password", "-s", "svc", "-a", "acct", "-w", "pw"])
        #expect(japanese.exitCode == 45)
        #expect(japanese.errors.contains("\nsecurity: 同じ主キーの項目がすでにあります（acct=\"acct\", svce=\"svc\""))
        harness.language = .english
        let english = harness.run(["add-generic-password", "-s", "svc", "-a", "acct", "-w", "pw"])
        #expect(english.exitCode == 45)
        #expect(
            english.errors.contains(
                "\nsecurity: an item with the same primary key exists (acct=\"acct\", svce=\"svc\""))
        // JSON is for programs: the reason stays English.
        harness.language = .japanese
        let json = harness.run(["--json", "add-generic-password", "-s", "svc", "-a", "acct", "-w", "pw"])
        #expect(json.output.contains("\"reason\":\"an item with the same primary key exists"))
        // doctor explains in the same language, piece by piece (the defaulted attribute is a reason of its own).
        #expect(harness.run(["add-generic-password", "-s", "other", "-w", "pw"]).exitCode == 0)
        let doctor = harness.doctor(
            "add", json: #"{"kSecClass":"kSecClassGenericPassword","kSecAttrService":"other","kSecValueData":"x"}"#)
        #expect(doctor.exitCode == 45)
        #expect(doctor.output.contains("    reason: 同じ主キーの項目がすでにあります（acct=<0 bytes>, svce=\"other\""))
        #expect(
            doctor.output.contains(
                "追加で acct（既定値は空のデータ。空の文字列と一致します） を省いたため、それを持たずに保存された項目と衝突します"))
    }

    @Test func everyMessageOfTheCatalogsHasItsOwnJapaneseText() {
        let commandMessages: [CommandMessage] = [
            .searchedAs(identity: "LOCAL.a", groups: ["LOCAL.a"]), .actAsApp, .emptyDump,
            .damagedItemsSkipped(count: 2, note: nil), .lockWithoutPasscode, .unlockWithoutPasscode, .nothingToRemove,
            .commandLinePassword(option: "-p"), .commandLinePassword(option: nil), .accessOptionsIgnored(["-A"]),
            .addWithUpdate, .lockOnSleepIgnored, .gracePeriodUnchanged(seconds: 10), .leaksIgnored,
            .noPasswordEntered, .passwordsDiffer, .passwordUnreadable(errno: 5), .skippedPasswordLines(count: 1),
            .interactiveStoppedAfterPasswordLines, .interactiveStoppedForUnknownPasswordLines,
            .simulatedSensorUnused, .certificateNotTrusted,
        ]
        let usageMessages: [UsageMessage] = [
            .illegalOption("-- Z"), .missingArgument("-- a"), .fourCharacterCode(option: "c", value: "x"),
            .protocolCode("x"), .authenticationType("x"), .port("x"), .hexPassword, .gracePeriodValue("x"),
            .errorCodeMissing, .notAnErrorCode("x"), .doctorOperands, .unterminatedQuote("'"), .nameOneAction,
            .removeTakesNoNewPassword, .entitlementsFileMissing, .emptyAccessGroup, .interactiveTakesNoCommand,
            .noCommand, .helpTakesOneCommand, .dumpAccessLists, .dumpRawData, .dumpAccessListEditing,
            .backupFileMissing, .oneBackupFile, .nestedInteractive, .doctorNeedsFileInInteractive,
            .unsupportedVerb(verb: "v", reason: .oneKeychain, nearest: "help"),
            .unsupportedVerb(verb: "v", reason: .accessGroups, nearest: "help"),
            .unsupportedVerb(verb: "v", reason: .keysAndCertificates, nearest: "help"),
            .unsupportedVerb(verb: "v", reason: .macOSService, nearest: "help"),
            .keychainOperand(name: "x"), .unknownCommand("x"),
        ]
        let texts =
            commandMessages.map { ($0.text(in: .english), $0.text(in: .japanese)) }
            + usageMessages.map { ($0.text(in: .english), $0.text(in: .japanese)) }
        var seen = Set<String>()
        for (english, japanese) in texts {
            #expect(japanese != english)
            #expect(japanese.unicodeScalars.contains { (0x3040...0x30FF).contains($0.value) }, "\(english)")
            #expect(seen.insert(japanese).inserted, "\(japanese)")
        }
    }

    @Test func japaneseUsageErrorsKeepTheirUsageAndExitCode() {
        let harness = CommandHarness()
        harness.language = .japanese
        let run = harness.run(["find-generic-password", "-Z"])
        #expect(run.exitCode == 64)
        #expect(run.errors.hasPrefix("security: 不正なオプションです: -- Z\nUsage: find-generic-password"))
    }

    @Test func theSecurityProgramReadsTheLocaleOfItsProcess() throws {
        let program = try #require(Self.securityProgram())
        let run = try ChildProcess.run(
            program, ["error", "-25300"], environment: ["LANG": "ja_JP.UTF-8", "PATH": "/usr/bin:/bin"])
        #expect(run.status == 0)
        #expect(
            run.outputText
                == "Error: 0xFFFF9D2C -25300 指定した項目がキーチェーンに見つかりません。\n")
    }

    /// The `security` executable built beside this test runner (`swift build --build-tests` builds both).
    static func securityProgram() -> URL? {
        guard let runner = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            return nil
        }
        let candidate = URL(fileURLWithPath: runner).deletingLastPathComponent().appendingPathComponent("security")
        return FileManager.default.isExecutableFile(atPath: candidate.path) ? candidate : nil
    }
}
