import Foundation
import KeychainCore
import KeychainRequests
import KeychainTestSupport
import Testing

/// An app's device-passcode prompt through keychaind is asked at the app's own terminal: the daemon's question
/// goes to the client, whose relay asks there and sends back what was typed. From the terminal's background the
/// relay refuses instead of asking, since asking would stop the app (SIGTTIN, SIGTTOU) with nobody to resume it:
/// the read is errSecInteractionNotAllowed, as on a device whose app cannot show the passcode screen.
@Suite(.serialized) struct BackgroundRelayTests {
    static let passcode = "1234"

    /// App A with an item read only after the device passcode, on a daemon started with `extra`.
    private func guardedItem(extra: [String] = []) throws -> OwnerRightsTests.Fixture {
        let fixture = try OwnerRightsTests.Fixture(extra: extra)
        try fixture.daemon.ownerClient(password: OwnerRightsTests.password).setPasscode(
            Secret(Array(Self.passcode.utf8)))
        let added = try fixture.apps.run(fixture.apps.appA, "add-guarded", "guarded", "secret behind the passcode")
        #expect(added["status"] == "0")
        return fixture
    }

    /// The environment of app A's runs, with `$APP` naming it.
    private func environment(_ fixture: OwnerRightsTests.Fixture) -> [String: String] {
        var environment = fixture.environment
        environment["APP"] = fixture.apps.appA
        return environment
    }

    /// Runs app A's read as a background job of a shell with job control on `terminal`: what it printed, then
    /// what the shell's `wait` reported (128 + the signal when the app was stopped).
    private func readInTheBackground(
        _ fixture: OwnerRightsTests.Fixture, on terminal: SessionTerminal
    ) throws -> ChildProcess.Outcome {
        try terminal.runSession(
            "set -m; timeout -s KILL 20 \"$APP\" get guarded & wait $!; echo rc=$?", environment: environment(fixture))
    }

    @Test func aPasscodeTypedAtTheAppsTerminalOpensTheItem() throws {
        let fixture = try guardedItem()
        let terminal = try SessionTerminal()
        terminal.answer([Self.passcode])
        let run = try terminal.runSession("\"$APP\" get guarded", environment: environment(fixture))
        #expect(run.outputText.contains("status=0\ndata=secret behind the passcode"), "\(run.outputText)")
        #expect(terminal.transcript.contains("Keychain passcode: "))
        #expect(!terminal.transcript.contains(Self.passcode), "typed without echo")
    }

    @Test func fromTheBackgroundThePasscodeIsNotAskedAndTheReadIsInteractionNotAllowed() throws {
        let fixture = try guardedItem()
        let terminal = try SessionTerminal()
        terminal.answer([Self.passcode])
        let run = try readInTheBackground(fixture, on: terminal)
        // A relay that asked would stop the app: 149 (SIGTTIN) or 150 (SIGTTOU).
        #expect(run.outputText.contains("status=-25308\nrc=0"), "\(run.outputText) \(run.errorText)")
        #expect(!terminal.transcript.contains("Keychain passcode: "), "nothing asked: \(terminal.transcript)")
    }

    /// With `--passcode-prompts pam` the daemon runs PAM and the app's relay shows PAM's questions: from the
    /// background it refuses them too.
    @Test func fromTheBackgroundPAMsQuestionsAreNotAskedEither() throws {
        let fixture = try guardedItem(extra: ["--passcode-prompts", "pam"])
        let terminal = try SessionTerminal()
        terminal.answer([OwnerRightsTests.password])
        let run = try readInTheBackground(fixture, on: terminal)
        #expect(run.outputText.contains("status=-25308\nrc=0"), "\(run.outputText) \(run.errorText)")
        #expect(!terminal.transcript.contains("Password: "), "nothing asked: \(terminal.transcript)")
    }

    @Test func inTheForegroundPAMsQuestionIsAskedAtTheAppsTerminal() throws {
        let fixture = try guardedItem(extra: ["--passcode-prompts", "pam"])
        let terminal = try SessionTerminal()
        terminal.answer([OwnerRightsTests.password])
        let run = try terminal.runSession("\"$APP\" get guarded", environment: environment(fixture))
        #expect(run.outputText.contains("status=0\ndata=secret behind the passcode"), "\(run.outputText)")
        #expect(terminal.transcript.contains("Password: "))
        #expect(!terminal.transcript.contains(OwnerRightsTests.password), "typed without echo")
    }
}
