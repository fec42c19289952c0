import Foundation
import KeychainCore
import KeychainRequests
import Testing

@testable import KeychainDaemon

/// The daemon's own settings for authenticating its clients' users, and the pieces of owner rights that need no
/// daemon: the wire form of PAM's messages and the terminal session read from `/proc`.
struct OwnerSettingsTests {
    @Test func theCommandLineSetsPAMTheHelperTheWindowAndTheReader() throws {
        guard
            case .run(let configuration) = try DaemonCommandLine.parse([
                "--pam-service", "login", "--pam-directory", "/tmp/pam", "--authenticate-helper", "/opt/helper",
                "--owner-window", "0", "--passcode-prompts", "pam", "--fprintd-bus", "unix:path=/tmp/bus",
            ])
        else {
            Issue.record("not a run")
            return
        }
        #expect(configuration.owner.pamService == "login")
        #expect(configuration.owner.pamDirectory == "/tmp/pam")
        #expect(configuration.owner.helper == "/opt/helper")
        #expect(configuration.owner.windowSeconds == 0)
        #expect(configuration.owner.passcodePromptsUsePAM)
        #expect(configuration.owner.usesFingerprintReader && configuration.owner.fprintdBus == "unix:path=/tmp/bus")
        guard case .run(let defaults) = try DaemonCommandLine.parse([]) else { return }
        #expect(defaults.owner.windowSeconds == 300 && defaults.owner.pamService == "keychain")
        #expect(!defaults.owner.passcodePromptsUsePAM && !defaults.owner.usesFingerprintReader)
        #expect(throws: DaemonCommandLine.UsageError.self) { try DaemonCommandLine.parse(["--passcode-prompts", "x"]) }
        #expect(throws: DaemonCommandLine.UsageError.self) { try DaemonCommandLine.parse(["--owner-window", "-1"]) }
    }

    @Test func aHelperThatIsNotThereGivesNoAuthentication() {
        var settings = OwnerSettings()
        settings.helper = "/nonexistent/keychain-authenticate"
        #expect(settings.authentication(environment: EnvironmentVariables([:])) == nil)
    }

    @Test func pamMessagesAndTheirRepliesCrossTheWire() throws {
        for style in [SystemPrompt.Style.hidden, .visible, .information, .error] {
            let message = SystemPrompt(style: style, text: "Password: ")
            #expect(try PromptCodec.decodeQuestion(PromptCodec.encode(message)) == .system(message))
        }
        let passcode = UserPrompt.devicePasscode(reason: "r")
        #expect(try PromptCodec.decodeQuestion(PromptCodec.encode(passcode)) == .user(passcode))
        #expect(throws: KeychainError.self) { try PromptCodec.decodeQuestion([3, 9, 0, 0, 0, 0]) }
        guard case .shown = try PromptCodec.decodeAnswer(try PromptCodec.encode(PromptCodec.Reply.shown)) else {
            Issue.record("shown does not round-trip")
            return
        }
        #expect(throws: KeychainError.self) { try PromptCodec.decodeAnswer([3]) }
    }

    @Test func theTerminalSessionIsReadFromProc() throws {
        let stat = "1234 (a (b) c) S 1 1234 1234 34817 1234 4194560 0 0 0 0 0 0 0 0 20 0 1 0 5678 0 0"
        let fields = try #require(TerminalSession.fields(stat))
        #expect(fields[3] == "1234" && fields[4] == "34817")
        // This test process: whatever its terminal, a session without one is none.
        let own = TerminalSession.of(pid: getpid(), uid: getuid())
        if let own { #expect(own.terminal != 0 && own.session > 0) }
        #expect(TerminalSession.of(pid: -1, uid: 0) == nil)
    }
}
