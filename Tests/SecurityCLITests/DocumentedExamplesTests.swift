import Foundation
import KeychainCore
import KeychainMessages
import Testing

@testable import SecurityCLI

/// docs/security-command.md, held to the program: every `$ …` example runs and prints what the page shows, and
/// every exit code, default and limit the page states is what the command does. A change to either side that
/// the other does not follow fails here.
@Suite struct DocumentedExamplesTests {
    static let page: String = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/security-command.md")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    /// One `$ …` example of the page and the lines it shows after it.
    struct Example {
        let command: String
        let shown: [String]
    }

    /// The page's indented `$ ` lines, each with the indented lines after it up to the next `$ ` or a blank line.
    static var examples: [Example] {
        var found: [Example] = []
        var current: (command: String, shown: [String], indent: Int)?
        for line in page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let indent = line.prefix { $0 == " " }.count
            let text = line.dropFirst(indent)
            if indent >= 4, text.hasPrefix("$ ") {
                if let current { found.append(Example(command: current.command, shown: current.shown)) }
                current = (String(text.dropFirst(2)), [], indent)
            } else if let open = current, indent >= open.indent, !text.isEmpty {
                current?.shown.append(String(line.dropFirst(open.indent)))
            } else if let open = current {
                found.append(Example(command: open.command, shown: open.shown))
                current = nil
            }
        }
        if let current { found.append(Example(command: current.command, shown: current.shown)) }
        return found
    }

    /// A keychain as the page's examples assume it: the command acting as `LOCAL.security`, holding the
    /// generic password of service "app" with no account.
    static func pageKeychain() -> CommandHarness {
        let harness = CommandHarness(groups: ["LOCAL.security"])
        _ = harness.run(["add-generic-password", "-s", "app", "-w"], password: "x")
        return harness
    }

    @Test func theExamplesPrintWhatThePageShows() throws {
        let examples = Self.examples
        #expect(examples.count >= 4, "the page's examples were not found")
        for example in examples {
            let harness = Self.pageKeychain()
            var command = example.command
            if command.hasPrefix("LANG=ja_JP.UTF-8 ") {
                harness.language = .japanese
                command.removeFirst("LANG=ja_JP.UTF-8 ".count)
            }
            var arguments: [String]
            if command.hasPrefix("echo '"), let pipe = command.range(of: "' | security ") {
                // `echo 'JSON' | security doctor add`: the JSON goes through a file instead of standard input.
                let json = String(command[command.index(command.startIndex, offsetBy: 6)..<pipe.lowerBound])
                arguments = try ShellWords.split(String(command[pipe.upperBound...])) + [Self.file(json)]
            } else {
                arguments = try ShellWords.split(String(command.dropFirst("security ".count)))
                // The page's query.json is a query for service "app".
                arguments = arguments.map { $0 == "query.json" ? Self.file(#"{"class":"genp","svce":"app"}"#) : $0 }
                // The page's certificate files are made by `openssl` (CertificateFiles).
                let files = try CertificateFiles.shared()
                arguments = arguments.map { $0.hasSuffix(".pem") || $0.hasSuffix(".p12") ? files.path($0) : $0 }
            }
            let run = harness.run(arguments)
            let printed = (run.output.isEmpty ? run.errors : run.output).split(separator: "\n").map(String.init)
            #expect(printed.count == example.shown.count, "\(example.command): \(printed)")
            for (shown, actual) in zip(example.shown, printed) {
                if let cut = shown.range(of: "…", options: .backwards), shown.hasSuffix("…") {
                    #expect(actual.hasPrefix(shown[..<cut.lowerBound]), "\(example.command)")
                } else {
                    #expect(actual == shown, "\(example.command)")
                }
            }
        }
    }

    @Test func theStatedExitCodesAreTheProgramsExitCodes() {
        let page = Self.page
        #expect(
            page.contains(
                "44 not found, 45 already exists,\n  30 missing entitlement, 128 a passcode or backup password prompt"))
        let harness = Self.pageKeychain()
        #expect(harness.run(["find-generic-password", "-s", "none"]).exitCode == 44)
        #expect(harness.run(["add-generic-password", "-s", "app", "-w", "y"]).exitCode == 45)
        let entitlements = Self.file(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>keychain-access-groups</key><array><string>TEAM1.a</string></array>\
            </dict></plist>
            """)
        #expect(harness.run(["--entitlements", entitlements, "-G", "TEAM1.b", "find-generic-password"]).exitCode == 30)
        #expect(harness.run(["add-generic-password", "-s", "new", "-w"], password: nil).exitCode == 1)

        #expect(page.contains("(45 for a\ncollision, 44 for not found, 206 for errSecParam"))
        let limit = Self.file(#"{"class":"genp","svce":"app","m_Limit":true}"#)
        #expect(
            harness.run(["doctor", "add", Self.file(#"{"class":"genp","svce":"app","v_Data":"x"}"#)]).exitCode
                == 45)
        #expect(harness.run(["doctor", "copy", Self.file(#"{"class":"genp","svce":"none"}"#)]).exitCode == 44)
        #expect(harness.run(["doctor", "copy", limit]).exitCode == 206)

        #expect(page.contains("`security: OSStatus -25300, exit code 44`"))
        #expect(
            harness.run(["-v", "find-generic-password", "-s", "none"]).errors
                .hasSuffix("security: OSStatus -25300, exit code 44\n"))
        let errorLine = "Error: 0xFFFF9D2C -25300 The specified item could not be found in the keychain."
        #expect(page.contains("prints `\(errorLine)`"))
        #expect(harness.run(["error", "-25300"]).output == errorLine + "\n")
        #expect(
            page.contains(
                "A command line\n  that cannot be run prints the problem and the verb's usage, and exits with 64."))
        #expect(harness.run(["find-generic-password", "-Z"]).exitCode == 64)
    }

    @Test func theStatedDefaultsAndLimitsAreThePrograms() throws {
        let page = Self.page
        let harness = Self.pageKeychain()
        #expect(
            page.contains(
                "(default 10 s; 0 locks them at once). The keychain accepts 0 to 86400 (one day; more is\n"
                    + "  `errSecParam` with the range, exit 206); a value beyond macOS's 32-bit lock interval (4294967295)"
            ))
        #expect(try harness.info()["gracePeriodSeconds"] as? Int == 10)
        #expect(harness.run(["set-keychain-settings", "-t", "86400"]).exitCode == 0)
        #expect(harness.run(["set-keychain-settings", "-t", "86401"]).exitCode == 206)
        #expect(harness.run(["set-keychain-settings", "-t", "4294967295"]).exitCode == 206)
        #expect(harness.run(["set-keychain-settings", "-t", "4294967296"]).exitCode == 64)
        #expect(harness.run(["set-keychain-settings", "-t", "-1"]).exitCode == 64)

        #expect(page.contains("exits with 51\n  (errSecAuthFailed, -25293)"))
        defer { harness.restart() }
        #expect(harness.run(["set-keychain-password"], standardInput: "1234\n").exitCode == 0)
        #expect(harness.run(["unlock-keychain"], standardInput: "4321\n").exitCode == 51)
        #expect(
            page.contains("the lock state is one of `no passcode`, `before first unlock`, `unlocked`, `locked`")
                || page.contains("The lock state is one of `no passcode`, `before first unlock`, `unlocked`, `locked`"))
        #expect(try harness.info()["lockState"] as? String == "unlocked")
        let info = harness.run(["show-keychain-info"])
        #expect(
            info.output.hasPrefix(
                "Keychain \"\(harness.keychainPath)\" timeout=86400s\n    lock state: unlocked\n"))
    }

    /// A temporary file holding `text`.
    static func file(_ text: String) -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("documented-\(UUID().uuidString)")
        try? Data(text.utf8).write(to: url)
        return url.path
    }
}
