import Foundation
import KeychainCore
import Testing

@testable import SecurityCLI

/// Control characters in values (an escape sequence in an account name, a C1 control, a bidirectional
/// override) never reach the terminal raw: listings, reason lines, usage errors and JSON all escape them.
@Suite struct TerminalEscapingTests {
    /// ESC, BEL, CSI as a C1 control (U+009B), a right-to-left override (U+202E).
    private static let hostile = "evil\u{1B}]0;pwned\u{07}\u{9B}2J\u{202E}x"

    /// Whether `text` holds any character a terminal could act on.
    private func isInert(_ text: String) -> Bool {
        !text.unicodeScalars.contains { scalar in
            (scalar.value < 0x20 && scalar != "\n") || (0x7F...0x9F).contains(scalar.value)
                || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
        }
    }

    @Test func theEscapedFormNamesEveryByte() {
        #expect(TerminalText.escaped("a\u{1B}[31mb") == "a\\033[31mb")
        #expect(TerminalText.escaped("tab\there\nnext") == "tab\\011here\\012next")
        #expect(TerminalText.escaped("\u{9B}") == "\\302\\233")
        #expect(TerminalText.escaped("\u{202E}") == "\\342\\200\\256")
        #expect(TerminalText.escaped("j\u{F6}rg \"x\" \\ ok") == "j\u{F6}rg \"x\" \\ ok")
        #expect(TerminalText.escaped("two\nlines", keepingNewlines: true) == "two\nlines")
    }

    @Test func reasonLinesEscapeValues() {
        let harness = CommandHarness()
        _ = harness.run(["add-generic-password", "-a", Self.hostile, "-s", "svc", "-w", "pw"])
        let differs = harness.run(["find-generic-password", "-a", "alice", "-s", "svc"])
        #expect(differs.exitCode == 44)
        #expect(differs.errors.contains("evil\\033]0;pwned\\007"))
        #expect(isInert(differs.errors))
        let queried = harness.run(["find-generic-password", "-a", Self.hostile, "-s", "other"])
        #expect(queried.exitCode == 44)
        #expect(isInert(queried.errors))
        let duplicate = harness.run(["add-generic-password", "-a", Self.hostile, "-s", "svc", "-w", "pw"])
        #expect(duplicate.exitCode == 45)
        #expect(isInert(duplicate.errors))
    }

    @Test func listingsDeletionsAndJSONStayInert() {
        let harness = CommandHarness()
        _ = harness.run(["add-generic-password", "-a", Self.hostile, "-s", "svc", "-w", "pw"])
        for arguments in [
            ["find-generic-password", "-s", "svc"], ["dump-keychain"], ["--json", "dump-keychain"],
            ["--json", "find-generic-password", "-s", "svc"],
        ] {
            let run = harness.run(arguments)
            #expect(run.exitCode == 0, "\(arguments)")
            #expect(isInert(run.output) && isInert(run.errors), "\(arguments)")
        }
        let json = harness.run(["--json", "find-generic-password", "-s", "svc"])
        let object = try? JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
        #expect(object?["acct"] as? String == Self.hostile)  // escaped as JSON, the value intact
        let doctor = harness.doctor("copy", json: #"{"class":"genp","svce":"svc","m_Limit":"m_LimitAll"}"#)
        #expect(doctor.exitCode == 0)
        #expect(isInert(doctor.output))
        let deleted = harness.run(["delete-generic-password", "-s", "svc"])
        #expect(deleted.exitCode == 0)
        #expect(isInert(deleted.output))
    }

    @Test func usageErrorsAndPathsEscapeWhatTheUserTyped() {
        let harness = CommandHarness()
        for arguments in [
            [Self.hostile], ["find-generic-password", "-c", Self.hostile], ["error", Self.hostile],
            ["--entitlements", "/nonexistent/\(Self.hostile)", "dump-keychain"],
            ["restore-keychain", "-p", "pw", "/nonexistent/\(Self.hostile)"],
        ] {
            let run = harness.run(arguments)
            #expect(run.exitCode != 0, "\(arguments)")
            #expect(isInert(run.errors), "\(arguments)")
            #expect(isInert(run.output), "\(arguments)")
        }
        let interactive = harness.runInteractive(["\(Self.hostile)"])
        #expect(isInert(interactive.errors))
    }

    @Test func passwordsWithControlCharactersPrintAsHex() {
        let harness = CommandHarness()
        _ = harness.run(["add-generic-password", "-s", "svc", "-w", "a\u{9B}b"])
        #expect(harness.run(["find-generic-password", "-s", "svc", "-w"]).output == "61c29b62\n")
    }
}
