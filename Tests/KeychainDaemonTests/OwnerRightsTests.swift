import Foundation
import KeychainCore
import KeychainRequests
import KeychainTestSupport
import KeychainWire
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The `security` command through keychaind: an app like any other, or, after the daemon has authenticated the
/// user itself with PAM (the test stack accepts one password, typed at a pseudo-terminal), the owner of the
/// uid's keychain in every group. Each test starts its own daemon.
@Suite(.serialized) struct OwnerRightsTests {
    static let password = "open sesame"

    /// App A (a copy of the test client named by the policy) with one item, a PAM stack, and a daemon that
    /// authenticates with them.
    final class Fixture {
        let apps: AppIsolationTests.Apps
        let pam: PAMServiceFixture
        private let daemonArguments: [String]
        var daemon: DaemonProcess { apps.daemon }

        init(window: Int = 300, extra: [String] = []) throws {
            apps = try AppIsolationTests.Apps()
            pam = try PAMServiceFixture(password: OwnerRightsTests.password)
            let helper = URL(fileURLWithPath: try DaemonProcess.executable()).deletingLastPathComponent()
                .appendingPathComponent("keychain-authenticate").path
            let keep = apps.daemon
            daemonArguments =
                [
                    "--pam-service", PAMServiceFixture.service, "--pam-directory", pam.directory.path,
                    "--authenticate-helper", helper,
                    "--owner-window", String(window),
                ] + extra
            apps.daemon = try DaemonProcess(
                daemonArguments,
                policy: { policy in
                    for name in ["a.plist", "b.plist"] {
                        try? FileManager.default.copyItem(
                            atPath: keep.policyDirectory + "/" + name, toPath: policy + "/" + name)
                    }
                })
            keep.stop()
            #expect(try apps.run(apps.appA, "add", "acct", "secret of A")["status"] == "0")
        }

        deinit { pam.remove() }

        /// Kills the daemon (SIGKILL) and starts it again on the same state, policy and settings.
        func restartDaemon() throws {
            apps.daemon.kill()
            apps.daemon = try DaemonProcess(daemonArguments, directory: apps.daemon.directory)
        }

        var environment: [String: String] {
            var environment = ProcessInfo.processInfo.environment
            environment["LD_PRELOAD"] = nil
            environment["KEYCHAIN_SOCKET"] = daemon.socketPath
            environment["KEYCHAIN_HOME"] = "/nonexistent/embedded-must-not-be-used"
            environment["SECURITY"] = (try? Self.security()) ?? "security"
            return environment
        }

        static func security() throws -> String {
            URL(fileURLWithPath: try DaemonProcess.executable()).deletingLastPathComponent()
                .appendingPathComponent("security").path
        }

        /// Runs `security` without a terminal.
        func security(_ arguments: [String]) throws -> ChildProcess.Outcome {
            try ChildProcess.run(URL(fileURLWithPath: try Self.security()), arguments, environment: environment)
        }
    }

    static let find = "\"$SECURITY\" find-generic-password -s shared -a acct -w; echo exit=$?; "

    @Test func securityAsAnAppNeitherReadsNorUpdatesNorDeletesAnotherAppsItems() throws {
        let fixture = try Fixture()
        let read = try fixture.security(["--app", "find-generic-password", "-s", "shared", "-a", "acct", "-w"])
        #expect(read.status == 44, "errSecItemNotFound: \(read.errorText)")
        #expect(!read.outputText.contains("secret of A"))
        let dump = try fixture.security(["--app", "dump-keychain", "-d"])
        #expect(!dump.outputText.contains("secret of A"))
        let deleted = try fixture.security(["--app", "delete-generic-password", "-s", "shared", "-a", "acct"])
        #expect(deleted.status == 44)
        let named = try fixture.security(["--app", "-G", "TEAM.a", "find-generic-password", "-s", "shared"])
        #expect(named.status != 0 && !named.outputText.contains("secret of A"), "a group the daemon did not give")
        // An "update" (-U) adds to the command's own group; A's item is untouched.
        let updated = try fixture.security([
            "--app", "add-generic-password", "-U", "-s", "shared", "-a", "acct", "-w", "overwritten",
        ])
        #expect(updated.status == 0, "\(updated.errorText)")
        #expect(try fixture.apps.run(fixture.apps.appA, "get", "acct")["data"] == "secret of A")
        // Without a terminal, the command does not ask and stays an app, even without --app.
        let noTerminal = try fixture.security(["find-generic-password", "-s", "shared", "-a", "acct", "-w"])
        #expect(noTerminal.outputText.contains("overwritten") && !noTerminal.outputText.contains("secret of A"))
    }

    @Test func withTheOwnersPasswordSecurityReadsUpdatesAndDeletesEveryAppsItems() throws {
        let fixture = try Fixture()
        let terminal = try SessionTerminal()
        terminal.answer([Self.password])
        let script =
            Self.find
            + "\"$SECURITY\" -G TEAM.a add-generic-password -U -s shared -a acct -w changed; echo exit=$?; "
            + "\"$SECURITY\" -G TEAM.a find-generic-password -s shared -a acct -w; "
            + "\"$SECURITY\" daemon status; "
            + "\"$SECURITY\" -G TEAM.a delete-generic-password -s shared -a acct; echo exit=$?"
        let run = try terminal.runSession(script, environment: fixture.environment)
        #expect(run.outputText.contains("secret of A\nexit=0"), "\(run.outputText) \(run.errorText)")
        #expect(!run.outputText.contains("exit=4"), "\(run.outputText) \(run.errorText)")
        #expect(run.outputText.contains("exit=0\nchanged\n"), "updated in A's group")
        #expect(run.outputText.contains("owner: yes"))
        #expect(run.outputText.contains("owner-until: "))
        let shown = terminal.transcript
        #expect(shown.components(separatedBy: "Password: ").count == 2, "asked once: \(shown)")
        #expect(!shown.contains(Self.password), "typed without echo")
        #expect(
            try fixture.apps.run(fixture.apps.appA, "get", "acct")["status"] == "-25300",
            "\(run.outputText) \(run.errorText)")
        #expect(fixture.daemon.log.contains("owner rights granted"))
        #expect(!fixture.daemon.log.contains(Self.password))
    }

    @Test func aWrongPasswordIsAuthFailedAndACancelIsUserCanceledWithNoRights() throws {
        let fixture = try Fixture()
        let terminal = try SessionTerminal()
        terminal.answer(["not it", nil])
        let run = try terminal.runSession(Self.find + Self.find, environment: fixture.environment)
        #expect(run.errorText.contains("owner rights not granted (-25293)"), "\(run.errorText)")
        #expect(run.errorText.contains("owner rights not granted (-128)"), "\(run.errorText)")
        #expect(run.outputText.components(separatedBy: "exit=44").count == 3, "\(run.outputText)")
        #expect(!run.outputText.contains("secret of A"))
        #expect(fixture.daemon.log.contains("owner rights refused"))
        #expect(!fixture.daemon.log.contains("not it"))
    }

    @Test func theReuseWindowServesTheSameSessionAndNoOther() throws {
        let fixture = try Fixture()
        let first = try SessionTerminal()
        first.answer([Self.password])
        let other = try SessionTerminal()
        other.answer([nil])
        // Two security processes of one session: the second is not asked. Meanwhile another session is.
        let script = Self.find + Self.find + "\"$SECURITY\" daemon status; "
        let firstRun = try first.runSession(script + "sleep 1", environment: fixture.environment)
        #expect(firstRun.outputText.components(separatedBy: "secret of A\nexit=0").count == 3, "\(firstRun.errorText)")
        #expect(first.transcript.components(separatedBy: "Password: ").count == 2, "\(first.transcript)")
        let otherRun = try other.runSession(Self.find, environment: fixture.environment)
        #expect(otherRun.outputText.contains("exit=44"))
        #expect(otherRun.errorText.contains("(-128)"))
        #expect(other.transcript.contains("Password: "))
        #expect(fixture.daemon.log.contains("owner rights reused"))
    }

    /// An app the policy names stays an app: no prompt, whatever it could relay, and no reuse of its terminal
    /// session's grant.
    @Test func anAppThePolicyNamesCannotClaimOwnerRights() throws {
        let fixture = try Fixture()
        let terminal = try SessionTerminal()
        terminal.answer([Self.password])
        // The session holds a grant (security was asked once), then app A claims from the same session.
        let script = Self.find + "\"$APP_A\" claim-owner; "
        var environment = fixture.environment
        environment["APP_A"] = fixture.apps.appA
        let run = try terminal.runSession(script, environment: environment)
        #expect(run.outputText.contains("secret of A\nexit=0"), "\(run.errorText)")
        #expect(run.outputText.contains("status=-34018"), "\(run.outputText)")
        #expect(run.outputText.contains("prompted=false"))
        #expect(run.outputText.contains("reason=the administrator's policy names this program as the app"))
        #expect(terminal.transcript.components(separatedBy: "Password: ").count == 2, "\(terminal.transcript)")
    }

    @Test func anExpiredWindowAsksAgain() throws {
        let fixture = try Fixture(window: 2)
        let terminal = try SessionTerminal()
        terminal.answer([Self.password, Self.password])
        let run = try terminal.runSession(Self.find + "sleep 3; " + Self.find, environment: fixture.environment)
        #expect(run.outputText.components(separatedBy: "secret of A\nexit=0").count == 3, "\(run.errorText)")
        #expect(terminal.transcript.components(separatedBy: "Password: ").count == 3, "\(terminal.transcript)")
    }

    /// A client speaking the protocol itself: whatever it answers, only the password PAM accepts grants rights.
    @Test func aClientsPrompterCannotFakeSuccess() throws {
        let fixture = try Fixture()
        func claim(answering hidden: [UInt8]) throws -> FieldList? {
            let client = try fixture.daemon.connect()
            #expect(try client.negotiate() == nil)
            let claim = Frame(kind: .claimOwner, requestID: client.takeRequestID(), payload: [])
            #expect(client.send(claim))
            while true {
                let frame = try client.receive()
                if frame.kind == .ownerRights { return frame.fieldList }
                guard frame.kind == .prompt, case .system(let message) = try PromptCodec.decodeQuestion(frame.payload)
                else { return nil }
                let reply = message.style.isQuestion ? hidden : try PromptCodec.encode(PromptCodec.Reply.shown)
                #expect(client.send(Frame(kind: .promptAnswer, requestID: claim.requestID, payload: reply)))
            }
        }
        // "Shown" to a question, an unknown answer kind, a failure code, a wrong password: none is a success.
        let shown = try claim(answering: try PromptCodec.encode(PromptCodec.Reply.shown))
        #expect(shown?["status"] == "-128" && shown?["owner"] == "no")
        let unknown = try claim(answering: [9])
        #expect(unknown?["status"] == "-128" && unknown?["owner"] == "no")
        let success = try claim(answering: [1, 0, 0, 0, 0])  // an LAError code of 0: not one
        #expect(success?["owner"] == "no")
        let wrong = try claim(answering: try PromptCodec.encode(.passcode(SecureBytesBox(Array("guess".utf8)))))
        #expect(wrong?["status"] == "-25293" && wrong?["owner"] == "no")
        let right = try claim(answering: try PromptCodec.encode(.passcode(SecureBytesBox(Array(Self.password.utf8)))))
        #expect(right?["status"] == "0" && right?["owner"] == "yes")
    }

    /// The claim's prompt names the client as the daemon identified it, before the text the client sent: a client
    /// cannot present its claim as `security`'s.
    @Test func anOwnerClaimsPromptNamesTheClientTheDaemonIdentified() throws {
        let fixture = try Fixture()
        let client = try fixture.daemon.connect()
        #expect(try client.negotiate() == nil)
        let message = "security wants to act for the keychain's owner."
        let claim = Frame(kind: .claimOwner, requestID: client.takeRequestID(), payload: Array(message.utf8))
        #expect(client.send(claim))
        var shown: [String] = []
        while true {
            let frame = try client.receive()
            if frame.kind == .ownerRights {
                #expect(frame.fieldList?["owner"] == "yes")
                break
            }
            guard frame.kind == .prompt, case .system(let prompt) = try PromptCodec.decodeQuestion(frame.payload)
            else { return }
            shown.append(prompt.text)
            let password = PromptCodec.Reply.passcode(SecureBytesBox(Array(Self.password.utf8)))
            let reply = try PromptCodec.encode(prompt.style.isQuestion ? password : .shown)
            #expect(client.send(Frame(kind: .promptAnswer, requestID: claim.requestID, payload: reply)))
        }
        let first = shown.first ?? ""
        #expect(first.hasPrefix("LOCAL."), "the test runner's private group: \(shown)")
        #expect(first.contains("asks to act as your keychain's owner") && first.contains("Its reason: \(message)"))
    }

    @Test func aProcessThatHeldOwnerRightsClaimsThemAgainWhenItReconnects() throws {
        let fixture = try Fixture()
        let relay = ScriptedRelay([Self.password, Self.password])
        let service = DaemonKeychainService(socketPath: fixture.daemon.socketPath, systemPrompter: relay)
        let caller = Caller(identity: service.callerIdentity)
        let query = ItemQuery(
            itemClass: .genericPassword, attributes: [.service: .string("shared"), .account: .string("acct")],
            returns: [.data])
        func found() throws -> Int {
            guard case .found(let report) = try service.perform(.search(query), as: caller) else { return -1 }
            return report.results.count
        }
        #expect(throws: KeychainError.self) { _ = try found() }  // an app: A's item is not found
        #expect(try service.claimOwnerRights(message: "test").isGranted)
        #expect(try found() == 1)
        try fixture.restartDaemon()
        // The first request after the restart connects again, claims again (asked again: no terminal session to
        // reuse a grant of), and is still the owner's.
        #expect(try found() == 1)
        #expect(relay.asked.filter { $0 == "Password: " }.count == 2)
        // A claim refused on reconnecting leaves an app.
        try fixture.restartDaemon()
        #expect(throws: KeychainError.self) { _ = try found() }
        #expect(relay.asked.filter { $0 == "Password: " }.count == 3)
    }

    /// Owner rights cover every group, not the groups of apps the daemon has seen: the owner puts a secret in
    /// place for app B before B has ever run (an administrator seeding a service's key), and finds A's item after a
    /// restart, before A has connected again. The daemon keeps no list of groups to grow.
    @Test func theOwnerReachesGroupsOfAppsThatHaveNotRunYet() throws {
        let fixture = try Fixture()
        try fixture.restartDaemon()
        let owner = DaemonKeychainService(
            socketPath: fixture.daemon.socketPath, systemPrompter: ScriptedRelay([Self.password]))
        #expect(try owner.claimOwnerRights(message: "test").isGranted)
        #expect(owner.callerIdentity.isOwner)
        let caller = Caller(identity: owner.callerIdentity)
        let seeded = NewItem(
            itemClass: .genericPassword, attributes: [.service: .string("shared"), .account: .string("seeded")],
            accessGroup: "TEAM.b", data: Array("for B".utf8))
        _ = try owner.perform(.add(seeded), as: caller)
        let query = ItemQuery(
            itemClass: .genericPassword, attributes: [.service: .string("shared")], limit: .all, returns: [.attributes])
        guard case .found(let report) = try owner.perform(.search(query), as: caller) else {
            Issue.record("the owner found nothing")
            return
        }
        #expect(
            Set(report.results.compactMap { $0.attributes?[.accessGroup] }) == [.string("TEAM.a"), .string("TEAM.b")])
        #expect(try fixture.apps.run(fixture.apps.appB, "get", "seeded")["data"] == "for B")
        #expect(try fixture.apps.run(fixture.apps.appA, "get", "seeded")["status"] == "-25300")
        let state = fixture.daemon.directory + "/state/" + String(getuid())
        #expect(!FileManager.default.fileExists(atPath: state + "/access-groups"))
    }

    /// `security unlock-keychain` at a terminal, held back by wrong passcodes an app fed the daemon, says so and
    /// tries the same passcode again as the owner, whose attempts are counted apart (the daemon asks the system
    /// password first).
    @Test func anUnlockHeldBackByAnAppsWrongPasscodesIsTriedAgainAsTheOwner() throws {
        let fixture = try Fixture()
        try fixture.daemon.ownerClient(password: Self.password).setPasscode(Secret(Array("1234".utf8)))
        let app = KeychainClient(service: DaemonKeychainService(socketPath: fixture.daemon.socketPath))
        try app.lock()
        for _ in 0..<5 { _ = try? app.unlock(passcode: Secret(Array("0000".utf8))) }
        let terminal = try SessionTerminal()
        terminal.answer([Self.password])
        let run = try terminal.runSession(
            "printf '1234\\n' | \"$SECURITY\" unlock-keychain; echo exit=$?", environment: fixture.environment)
        #expect(run.outputText.contains("exit=0"), "\(run.outputText) \(run.errorText) \(terminal.transcript)")
        #expect(run.errorText.contains("counted apart"), "\(run.errorText)")
        #expect(terminal.transcript.contains("Password: "))
        #expect(try app.info().lockState == .unlocked)
        // Without a terminal there is nobody to ask: the unlock stays held back.
        try app.lock()
        for _ in 0..<5 { _ = try? app.unlock(passcode: Secret(Array("0000".utf8))) }
        let piped = try fixture.security(["unlock-keychain", "-p", "1234"])
        #expect(piped.status == 51, "errSecAuthFailed: \(piped.errorText)")
    }

    /// Evaluates `policy` through the daemon in a fresh authentication context of `caller`.
    static func evaluate(
        _ policy: AuthenticationPolicy, reason: String, service: DaemonKeychainService, caller: Caller
    ) throws -> KeychainResponse {
        guard case .authenticationContext(let id) = try service.perform(.createAuthenticationContext, as: caller)
        else { throw DaemonTestError("no context") }
        return try service.perform(
            .evaluatePolicy(policy, reason: reason), as: Caller(identity: caller.identity, authenticationContext: id))
    }

    /// With `--passcode-prompts pam`, a request's device-passcode prompt is PAM run by the daemon for the client's
    /// user: the client's relay sees PAM's messages and passes on what was typed; the keychain passcode is no
    /// answer, and a wrong password is LAError.authenticationFailed.
    @Test func devicePasscodePromptsCanBePAMRunByTheDaemon() throws {
        let fixture = try Fixture(extra: ["--passcode-prompts", "pam"])
        let relay = ScriptedRelay(["1234", "not it", Self.password])
        let service = DaemonKeychainService(socketPath: fixture.daemon.socketPath, systemPrompter: relay)
        let caller = Caller(identity: service.callerIdentity)
        try fixture.daemon.ownerClient(password: OwnerRightsTests.password).setPasscode(Secret(Array("1234".utf8)))
        func evaluate() throws -> KeychainResponse {
            try Self.evaluate(.devicePasscode, reason: "Unlock your notes", service: service, caller: caller)
        }
        for _ in 0..<2 {
            #expect {
                _ = try evaluate()
            } throws: { error in
                (error as? AuthenticationFailure) == .authenticationFailed
            }
        }
        let response = try evaluate()
        guard case .evaluated = response else {
            Issue.record("not evaluated: \(response)")
            return
        }
        // The app's reason, after the name the daemon found for it.
        #expect(relay.shown.contains { $0.hasPrefix("LOCAL.") && $0.hasSuffix(" asks: Unlock your notes") })
        #expect(relay.asked.filter { $0 == "Password: " }.count == 3)
    }

    /// A prompt's reason is the app's text, shown by the helper PAM runs in: one longer than the helper's messages
    /// may be is cut, and the prompt goes on (it used to leave the helper blocked on a message the daemon would
    /// not read, and the connection's thread waiting for it, for good).
    @Test(.timeLimit(.minutes(1))) func aLongReasonIsCutAndThePromptGoesOn() throws {
        let fixture = try Fixture(extra: ["--passcode-prompts", "pam"])
        let relay = ScriptedRelay([Self.password])
        let service = DaemonKeychainService(socketPath: fixture.daemon.socketPath, systemPrompter: relay)
        try fixture.daemon.ownerClient(password: OwnerRightsTests.password).setPasscode(Secret(Array("1234".utf8)))
        let reason = String(repeating: "Unlock your notes. ", count: 6_000)
        let response = try Self.evaluate(
            .devicePasscode, reason: reason, service: service, caller: Caller(identity: service.callerIdentity))
        guard case .evaluated = response else {
            Issue.record("not evaluated: \(response)")
            return
        }
        let shown = try #require(relay.shown.first { $0.contains(" asks: Unlock your notes.") })
        #expect(shown.utf8.count <= 1024 && shown.hasPrefix("LOCAL."), "cut at its end, the asker kept")
    }
}

/// Biometry through keychaind with `--fingerprint-reader`: the daemon asks fprintd (a stand-in on a private bus)
/// for the client's user and relays only its progress lines; the result is fprintd's.
@Suite(.serialized) struct DaemonFingerprintReaderTests {
    @Test func theDaemonAsksFprintdAndRelaysItsMessages() throws {
        let fprintd = try PrivateFprintd(fingers: ["right-index-finger"])
        defer { fprintd.stop() }
        let fixture = try OwnerRightsTests.Fixture(extra: ["--fprintd-bus", fprintd.address])
        let relay = ScriptedRelay([])
        let service = DaemonKeychainService(socketPath: fixture.daemon.socketPath, systemPrompter: relay)
        let caller = Caller(identity: service.callerIdentity)
        try fixture.daemon.ownerClient(password: OwnerRightsTests.password).setPasscode(Secret(Array("1234".utf8)))
        func evaluate() throws -> KeychainResponse {
            try OwnerRightsTests.evaluate(.biometrics, reason: "Show your card", service: service, caller: caller)
        }
        try fprintd.queue("verify-retry-scan", "verify-match")
        let matched = try evaluate()
        guard case .evaluated = matched else {
            Issue.record("not evaluated: \(matched)")
            return
        }
        try fprintd.queue("verify-no-match")
        #expect {
            _ = try evaluate()
        } throws: { error in
            (error as? AuthenticationFailure) == .authenticationFailed
        }
        #expect(relay.shown.contains { $0.hasPrefix("LOCAL.") && $0.hasSuffix(" asks: Show your card") })
        #expect(relay.shown.contains("Place a finger on the fingerprint reader."))
        #expect(relay.asked.isEmpty, "fprintd asks nothing to type")
    }
}

/// A client that cannot show anything: no terminal, or the background of its terminal.
struct UnshowableRelay: SystemPromptRelay {
    func relay(_ message: SystemPrompt) -> PromptCodec.Reply { .failed(.notInteractive) }
}

extension DaemonFingerprintReaderTests {
    /// A scan the user was never told about must not count: an app whose prompt cannot be shown gets
    /// LAError.notInteractive, as an app in the background of an iPhone, even when a finger matches meanwhile.
    @Test func aScanWhosePromptCannotBeShownIsNotInteractive() throws {
        let fprintd = try PrivateFprintd(fingers: ["right-index-finger"])
        defer { fprintd.stop() }
        let fixture = try OwnerRightsTests.Fixture(extra: ["--fprintd-bus", fprintd.address])
        let service = DaemonKeychainService(socketPath: fixture.daemon.socketPath, systemPrompter: UnshowableRelay())
        let caller = Caller(identity: service.callerIdentity)
        try fixture.daemon.ownerClient(password: OwnerRightsTests.password).setPasscode(Secret(Array("1234".utf8)))
        try fprintd.queue("verify-match")
        #expect {
            _ = try OwnerRightsTests.evaluate(.biometrics, reason: "Show your card", service: service, caller: caller)
        } throws: { error in
            (error as? AuthenticationFailure) == .notInteractive
        }
    }
}

/// A user who answers PAM's questions from a list, and keeps what was shown and asked.
final class ScriptedRelay: SystemPromptRelay, Sendable {
    private let state: Mutex<(answers: [String], shown: [String], asked: [String])>

    init(_ answers: [String]) { state = Mutex((answers, [], [])) }

    var shown: [String] { state.withLock { $0.shown } }
    var asked: [String] { state.withLock { $0.asked } }

    func relay(_ message: SystemPrompt) -> PromptCodec.Reply {
        state.withLock { state in
            guard message.style.isQuestion else {
                state.shown.append(message.text)
                return .shown
            }
            state.asked.append(message.text)
            guard !state.answers.isEmpty else { return .canceled }
            return .passcode(SecureBytesBox(Array(state.answers.removeFirst().utf8)))
        }
    }
}
