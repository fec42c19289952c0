import Foundation
import KeychainCore
import Testing

@testable import SecurityCLI

/// `error`, `-q`, `-v`, `-i`, `--json` and `doctor`, and the reasons printed after macOS's message lines.
@Suite struct DiagnosticsCommandTests {
    @Test func parsesTheNewGlobalOptionsAndVerbs() throws {
        let quiet = try CommandParser.parse(["-q", "-v", "--json", "find-generic-password", "-s", "x"])
        #expect(quiet.output == OutputOptions(quiet: true, verbose: true, json: true))
        let after = try CommandParser.parse(["find-generic-password", "--json", "-s", "x"])
        #expect(after.output.json)
        #expect(
            after.command
                == .findPassword(
                    FindPasswordCommand(
                        itemClass: .genericPassword, attributes: [.service: .string("x")])))
        #expect(try CommandParser.parse(["-i"]).command == .interactive)
        #expect(try CommandParser.parse(["error", "-25300", "0xFFFF9D2D"]).command == .errorMessage([-25300, -25299]))
        #expect(
            try CommandParser.parse(["doctor", "SecItemAdd", "q.json"]).command
                == .doctor(DoctorCommand(function: .add, file: "q.json")))
        #expect(try CommandParser.parse(["doctor", "-"]).command == .doctor(DoctorCommand()))
        #expect(
            try CommandParser.parse(["show-keychain-info", "--json"]).command
                == .showKeychainInfo(ShowKeychainInfoCommand(json: true)))
        #expect(throws: UsageError.self) { try CommandParser.parse(["error"]) }
        #expect(throws: UsageError.self) { try CommandParser.parse(["error", "nope"]) }
        #expect(throws: UsageError.self) { try CommandParser.parse(["-i", "dump-keychain"]) }
    }

    @Test func shellWordsSplitLikeAShell() throws {
        #expect(
            try ShellWords.split(#"add-generic-password -s 'my svc' -a "al \"x\" ice" -w"#)
                == ["add-generic-password", "-s", "my svc", "-a", #"al "x" ice"#, "-w"])
        #expect(try ShellWords.split(#"a\ b c # comment"#) == ["a b", "c"])
        #expect(try ShellWords.split("   ") == [])
        #expect(throws: UsageError.self) { try ShellWords.split("find 'open") }
    }

    @Test func errorVerbPrintsMacOSText() {
        let harness = CommandHarness()
        let run = harness.run(["error", "-25300", "0"])
        #expect(run.exitCode == 0)
        #expect(
            run.output == "Error: 0xFFFF9D2C -25300 The specified item could not be found in the keychain.\n"
                + "Error: 0x00000000 0 No error.\n")
        let json = harness.run(["--json", "error", "-34018"])
        #expect(
            json.output == #"{"hex":"0xFFFF7B1E","message":"A required entitlement isn't present.","status":-34018}"#
                + "\n")
        // A code the keychain never returns: SecCopyErrorMessageString's text, the code's name.
        let unnamed = harness.run(["error", "-67690"])
        #expect(unnamed.output == "Error: 0xFFFEF796 -67690 errSecInvalidCertificateRef (OSStatus -67690)\n")
    }

    @Test func quietAndVerboseShapeTheErrorLines() {
        let harness = CommandHarness()
        _ = harness.run(["add-generic-password", "-a", "alice", "-s", "svc", "-w"], password: "pw")
        let normal = harness.run(["find-generic-password", "-a", "bob", "-s", "svc"])
        // macOS's line, the reason, who the search ran as and how to act as an app.
        #expect(normal.errors.split(separator: "\n").count == 4)
        #expect(normal.errors.contains("acct value differs (the item has \"alice\", the query \"bob\")"))
        let quiet = harness.run(["-q", "find-generic-password", "-a", "bob", "-s", "svc"])
        #expect(quiet.exitCode == 44)
        #expect(quiet.errors == SecurityCommandRunnerTests.notFound)
        let verbose = harness.run(["-v", "find-generic-password", "-a", "bob", "-s", "svc"])
        #expect(verbose.errors.hasSuffix("security: OSStatus -25300, exit code 44\n"))
    }

    @Test func interactiveModeRunsLinesAndKeepsPasswordsOffArgv() throws {
        let harness = CommandHarness()
        let run = harness.runInteractive(
            [
                "# a batch", "add-generic-password -a 'alice smith' -s svc -w", "find-generic-password -s svc -w",
                "find-generic-password -s missing", "bogus-verb", "quit", "dump-keychain",
            ], password: "from-the-reader")
        #expect(run.output == "from-the-reader\n")
        #expect(run.errors.contains("security: unknown command \"bogus-verb\""))
        #expect(run.exitCode == 64)
        let saved = try harness.keychain().copyMatching(
            ItemQuery.genericPassword(service: "svc", account: "alice smith", returns: .data))
        #expect(saved.first?.data.map { String(decoding: $0.bytes, as: UTF8.self) } == "from-the-reader")
    }

    @Test func interactiveJSONReachesShowKeychainInfo() throws {
        let harness = CommandHarness()
        let run = harness.runInteractive(["show-keychain-info"], arguments: ["--json", "-i"])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        #expect(object["lockState"] as? String == "no passcode")
        #expect(object["hasPasscode"] as? Bool == false)
        #expect(!run.output.contains("Keychain \""))
    }

    @Test func jsonOnEveryVerb() throws {
        let harness = CommandHarness()
        let add = harness.run(["--json", "add-generic-password", "-a", "alice", "-s", "svc", "-w"], password: "pw1")
        #expect(add.output == "{\"status\":0}\n")
        let find = harness.run(["find-generic-password", "-s", "svc", "--json"])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(find.output.utf8)) as? [String: Any])
        #expect(object["acct"] as? String == "alice")
        #expect(object["class"] as? String == "genp")
        #expect(object["agrp"] as? String == "TEAM1.com.example.app")
        #expect(object["password"] == nil)
        #expect(!find.output.contains("pw1"))
        #expect(
            harness.run(["--json", "find-generic-password", "-s", "svc", "-w"]).output == "{\"password\":\"pw1\"}\n")
        let dump = harness.run(["--json", "dump-keychain"])
        #expect(dump.output.split(separator: "\n").count == 1 && !dump.output.contains("pw1"))
        #expect(harness.run(["--json", "dump-keychain", "-d"]).output.contains("\"data\":\"pw1\""))
        let missing = harness.run(["--json", "find-generic-password", "-s", "nope"])
        #expect(missing.exitCode == 44)
        #expect(missing.output.hasPrefix(#"{"error":{"message":"The specified item could not be found"#))
        #expect(missing.output.contains("\"status\":-25300"))
        #expect(harness.run(["--json", "show-keychain-info"]).output.contains("\"lockState\":\"no passcode\""))
        #expect(harness.run(["--json", "help"]).output.hasPrefix("{\"usage\":"))
        let delete = harness.run(["--json", "delete-generic-password", "-s", "svc"])
        #expect(delete.output.hasPrefix("{\"deleted\":{") && !delete.output.contains("pw1"))
        #expect(harness.run(["--json", "simulate-restart"]).output == "{\"status\":0}\n")
    }

    @Test func doctorExplainsWithoutChangingAnything() throws {
        let harness = CommandHarness()
        _ = harness.run(["add-generic-password", "-s", "app", "-l", "first", "-w"], password: "secret-one")
        let add = harness.doctor(
            "add",
            json: #"{"kSecClass":"kSecClassGenericPassword","kSecAttrService":"app","#
                + #""kSecAttrLabel":"second","kSecValueData":"secret-two"}"#)
        #expect(add.exitCode == 45)
        #expect(
            add.output.hasPrefix(
                "SecItemAdd would return -25299: The specified item already exists in the keychain.\n"
                    + "    reason: an item with the same primary key exists (acct=<0 bytes>, svce=\"app\""))
        #expect(add.output.contains("the add left out acct (defaulted to empty data, which matches an empty string)"))
        #expect(add.output.hasSuffix("    (nothing was changed)\n"))
        #expect(!add.output.contains("secret"))

        let copy = harness.doctor(nil, json: #"{"function":"copy","class":"genp","svce":"app","r_Data":true}"#)
        #expect(copy.exitCode == 0)
        #expect(
            copy.output == "SecItemCopyMatching would return 0: No error.\n    it would return 1 item(s):\n"
                + "        acct=<0 bytes>, svce=\"app\", agrp=\"TEAM1.com.example.app\", sync=false, pdmn=ak\n"
                + "    (nothing was changed)\n")

        let delete = harness.doctor("delete", json: #"{"class":"genp","svce":"app"}"#)
        #expect(delete.output.contains("it would delete 1 item(s)"))
        #expect(try harness.keychain().copyMatching(ItemQuery(itemClass: .genericPassword, limit: .all)).count == 1)

        let update = harness.doctor(
            "update", json: #"{"query":{"class":"genp","svce":"APP"},"attributesToUpdate":{"r_Data":true}}"#)
        #expect(update.exitCode == 41)  // errSecNoSuchAttr -25303: 0x...9D29
        #expect(update.output.contains("does not take return type (kSecReturn…) properties (r_Data)"))

        let param = harness.doctor(
            "add", json: #"{"class":"genp","svce":"x","m_Limit":"m_LimitOne"}"#, extra: ["--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(param.output.utf8)) as? [String: Any])
        #expect(object["status"] as? Int == -50)
        #expect(
            (object["reason"] as? String)?.hasPrefix("SecItemAdd does not take search (kSecMatch…) properties")
                == true)
        #expect(object["changed"] as? Bool == false)

        let unnamed = harness.doctor(nil, json: #"{"class":"genp"}"#)
        #expect(unnamed.exitCode != 0)
        #expect(harness.doctor("copy", json: "[1]").errors.contains("the input is not a JSON object"))
    }

    /// Issue 5's end-to-end check: the duplicate trap, the not-found-after-save trap and the locked-device trap,
    /// each explained by the CLI, naming the right attribute or state and no secret.
    @Test func theThreeTrapsAreExplainedEndToEnd() throws {
        let harness = CommandHarness()
        defer { harness.restart() }
        // Duplicate: saved without an account, saved again with another label.
        _ = harness.run(["add-generic-password", "-s", "api", "-l", "one", "-w"], password: "token-secret-1")
        let duplicate = harness.run(
            ["add-generic-password", "-s", "api", "-l", "two", "-w"], password: "token-secret-2")
        #expect(duplicate.exitCode == 45)
        #expect(
            duplicate.errors.contains("the add left out acct (defaulted to empty data, which matches an empty string)"))
        // Not found after save: the service's case differs.
        let notFound = harness.run(["find-generic-password", "-s", "API", "-a", ""])
        #expect(notFound.exitCode == 44)
        #expect(notFound.errors.contains("svce differs only in case"))
        // Locked device: a WhenUnlocked item read while locked.
        #expect(harness.run(["set-keychain-password", "-p", "1234"]).exitCode == 0)
        #expect(harness.run(["set-keychain-settings", "-t", "0"]).exitCode == 0)
        #expect(harness.run(["lock-keychain"]).exitCode == 0)
        let locked = harness.run(["find-generic-password", "-s", "api", "-w"])
        #expect(locked.exitCode == 36)
        #expect(locked.errors.contains("the keychain is locked; items of class ak"))
        #expect(locked.errors.contains("kSecAttrAccessibleAfterFirstUnlock"))
        #expect(locked.errors.contains("do not delete the item"))
        for run in [duplicate, notFound, locked] {
            #expect(!run.errors.contains("token-secret") && !run.output.contains("token-secret"))
        }
    }
}
