import Foundation
import KeychainCore
import KeychainTestSupport
import LocalAuthentication
import Security
import Synchronization
import Testing

/// Device-owner authentication by the system: a real PAM stack run by the `keychain-authenticate` helper,
/// answered by a person at a pseudo-terminal. The stack (`PAMServiceFixture`) accepts one password.
@Suite(.serialized) struct SystemOwnerAuthenticationTests {
    private let password = "open sesame"

    private func owner(_ pam: PAMServiceFixture, terminal: String) throws -> SystemOwnerAuthentication {
        var owner = try #require(
            SystemOwnerAuthentication.locate([:]), "keychain-authenticate is built beside the test bundle")
        owner.service = PAMServiceFixture.service
        owner.serviceDirectory = pam.directory.path
        owner.terminal = terminal
        return owner
    }

    @Test func deviceOwnerAuthenticationAsksPAMAtTheTerminal() async throws {
        let pam = try PAMServiceFixture(password: password)
        defer { pam.remove() }
        let user = try TerminalUser()
        try await withAuthenticatingKeychain(enrolled: false, owner: owner(pam, terminal: user.path)) { _, _ in
            user.answer([password])
            let context = LAContext()
            let authenticated = try await context.evaluatePolicy(
                .deviceOwnerAuthentication, localizedReason: "Unlock your notes")
            #expect(authenticated)
            let shown = user.transcript()
            #expect(shown.contains("Unlock your notes"))
            #expect(shown.contains("Password: "))
            #expect(!shown.contains(password), "the password is typed without echo")
        }
    }

    @Test func aWrongPasswordFailsAndControlDCancels() async throws {
        let pam = try PAMServiceFixture(password: password)
        defer { pam.remove() }
        let user = try TerminalUser()
        try await withAuthenticatingKeychain(enrolled: false, owner: owner(pam, terminal: user.path)) { _, _ in
            user.answer(["not it", nil])
            let context = LAContext()
            #expect(await evaluationCode(context, .deviceOwnerAuthentication) == .authenticationFailed)
            #expect(await evaluationCode(context, .deviceOwnerAuthentication) == .userCancel)
            _ = user.transcript()
        }
    }

    @Test func withoutATerminalNothingCanAsk() async throws {
        let pam = try PAMServiceFixture(password: password)
        defer { pam.remove() }
        try await withAuthenticatingKeychain(enrolled: false, owner: owner(pam, terminal: "/nonexistent/tty")) { _, _ in
            #expect(await evaluationCode(LAContext(), .deviceOwnerAuthentication) == .notInteractive)
        }
    }

    @Test func aPasscodeProtectedItemOpensAfterThePAMPrompt() async throws {
        let pam = try PAMServiceFixture(password: password)
        defer { pam.remove() }
        let user = try TerminalUser()
        try await withAuthenticatingKeychain(enrolled: false, owner: owner(pam, terminal: user.path)) { _, _ in
            #expect(
                addPassword("token", service: "com.app.owner", secret: "the-token", flags: .devicePasscode)
                    == errSecSuccess)
            let prompt = [kSecUseOperationPrompt as String: "Sign in to the test service"]
            user.answer([password, "not it", nil])
            #expect(readPassword("token", service: "com.app.owner", extra: prompt) == (errSecSuccess, "the-token"))
            #expect(readPassword("token", service: "com.app.owner", extra: prompt).0 == errSecAuthFailed)
            #expect(readPassword("token", service: "com.app.owner", extra: prompt).0 == errSecUserCanceled)
            let shown = user.transcript()
            #expect(shown.contains("Sign in to the test service"))
            #expect(!shown.contains(password) && !shown.contains("the-token"))
        }
    }

    @Test func aScriptedEntryIsUsedBeforeTheSystemIsAsked() async throws {
        let pam = try PAMServiceFixture(password: password)
        defer { pam.remove() }
        // The system prompt could not be shown here, so success can only come from the script.
        try await withAuthenticatingKeychain(enrolled: false, owner: owner(pam, terminal: "/nonexistent/tty")) {
            keychain, _ in
            keychain.authenticators.passcodePrompt.enter("1234")
            let context = LAContext()
            let authenticated = try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "a")
            #expect(authenticated)
        }
    }

    @Test func withoutTheHelperADeviceOwnerPromptCannotBeShown() async throws {
        // A process whose keychain-authenticate is not installed: nobody can be asked, as on a device that cannot
        // show its passcode UI; a scripted entry is still used first.
        try await withAuthenticatingKeychain(enrolled: false, owner: nil, ownerHelperMissing: true) { keychain, _ in
            #expect(await evaluationCode(LAContext(), .deviceOwnerAuthentication) == .notInteractive)
            #expect(
                addPassword("token", service: "com.app.owner", secret: "the-token", flags: .devicePasscode)
                    == errSecSuccess)
            #expect(readPassword("token", service: "com.app.owner").0 == errSecInteractionNotAllowed)
            keychain.authenticators.passcodePrompt.enter("1234")
            #expect(readPassword("token", service: "com.app.owner") == (errSecSuccess, "the-token"))
        }
    }

    @Test func aScriptOnlyKeychainDismissesAnUnscriptedPrompt() async throws {
        // Tests and demos (a configuration built by hand, or KEYCHAIN_AUTHENTICATION=simulated): a user who
        // dismisses the prompt.
        try await withAuthenticatingKeychain(enrolled: false, owner: nil) { _, _ in
            #expect(await evaluationCode(LAContext(), .deviceOwnerAuthentication) == .userCancel)
            #expect(
                addPassword("token", service: "com.app.owner", secret: "the-token", flags: .devicePasscode)
                    == errSecSuccess)
            #expect(readPassword("token", service: "com.app.owner").0 == errSecUserCanceled)
        }
    }

    @Test func theEnvironmentWithoutTheHelperCannotAskTheOwner() throws {
        let nowhere = URL(fileURLWithPath: "/nonexistent", isDirectory: true)
        let missing = try KeychainConfiguration.fromEnvironment(
            ["KEYCHAIN_HOME": "/tmp/k", "PATH": "/nonexistent"], executableDirectory: nowhere)
        #expect(missing.ownerAuthentication == nil)
        #expect(missing.ownerHelperMissing)
        let simulated = try KeychainConfiguration.fromEnvironment(
            ["KEYCHAIN_HOME": "/tmp/k", "KEYCHAIN_AUTHENTICATION": "simulated"], executableDirectory: nowhere)
        #expect(simulated.ownerAuthentication == nil)
        #expect(!simulated.ownerHelperMissing, "a script-only keychain chose to have no system prompt")
        let found = try KeychainConfiguration.fromEnvironment(["KEYCHAIN_HOME": "/tmp/k", "PATH": "/nonexistent"])
        #expect(found.ownerAuthentication != nil, "keychain-authenticate is built beside the test bundle")
        #expect(!found.ownerHelperMissing)
    }

    @Test func theEnvironmentChoosesTheSystemUnlessSimulated() throws {
        let helper = try #require(SystemOwnerAuthentication.locate([:])).helper.path
        let system = try KeychainConfiguration.fromEnvironment(["KEYCHAIN_HOME": "/tmp/k", "PATH": "/nonexistent"])
        #expect(system.ownerAuthentication?.helper.path == helper)
        #expect(system.ownerAuthentication?.service == "keychain")
        let simulated = try KeychainConfiguration.fromEnvironment([
            "KEYCHAIN_HOME": "/tmp/k", "KEYCHAIN_AUTHENTICATION": "simulated",
        ])
        #expect(simulated.ownerAuthentication == nil)
        let explicit = try KeychainConfiguration.fromEnvironment([
            "KEYCHAIN_HOME": "/tmp/k", "KEYCHAIN_AUTHENTICATE": "/bin/true",
        ])
        #expect(explicit.ownerAuthentication?.helper.path == "/bin/true")
    }

    /// The user's system password passes through the helper: it allows no core file (its limit is 0, soft and
    /// hard), so a crash or a SIGQUIT at the prompt leaves none with the password in it.
    @Test func theHelperAllowsNoCoreFile() async throws {
        let pam = try PAMServiceFixture(password: password)
        defer { pam.remove() }
        let user = try TerminalUser()
        try await withAuthenticatingKeychain(enrolled: false, owner: owner(pam, terminal: user.path)) { _, _ in
            user.answer([password], delay: 3)
            let done = DispatchSemaphore(value: 0)
            let context = LAContext()
            context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Unlock") { _, _ in done.signal() }
            var limits: [String] = []
            for _ in 0..<100 where limits.isEmpty {
                limits = Self.helperCoreLimits()
                usleep(20_000)
            }
            #expect(limits == ["0", "0"])
            #expect(done.wait(timeout: .now() + 20) == .success)
            _ = user.transcript()
        }
    }

    /// The soft and hard core file limits of this process's running `keychain-authenticate` child, once it has
    /// set them (empty until then).
    private static func helperCoreLimits() -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for pid in entries where pid.allSatisfy(\.isNumber) {
            guard
                (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.hasPrefix("keychain-authen")
                    == true,
                let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                status.contains("\nPPid:\t\(getpid())\n"),
                let limits = try? String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8),
                let line = limits.split(separator: "\n").first(where: { $0.hasPrefix("Max core file size") })
            else { continue }
            let values = line.dropFirst("Max core file size".count).split(separator: " ").prefix(2).map(String.init)
            if values == ["0", "0"] { return values }
        }
        return []
    }

    @Test func aPendingPromptDoesNotHoldUpOtherReads() async throws {
        let pam = try PAMServiceFixture(password: password)
        defer { pam.remove() }
        let user = try TerminalUser()
        try await withAuthenticatingKeychain(enrolled: false, owner: owner(pam, terminal: user.path)) { keychain, _ in
            #expect(
                addPassword("protected", service: "com.app.owner", secret: "protected", flags: .devicePasscode)
                    == errSecSuccess)
            #expect(addPassword("plain", service: "com.app.owner", secret: "plain", flags: nil) == errSecSuccess)
            func query(_ account: String) -> ItemQuery {
                ItemQuery(
                    itemClass: .genericPassword,
                    attributes: [.service: .string("com.app.owner"), .account: .string(account)], returns: [.data])
            }
            // The user takes three seconds to type; meanwhile another thread reads a plain item.
            user.answer([password], delay: 3)
            let protectedDone = DispatchSemaphore(value: 0)
            let protectedQuery = query("protected")
            Thread.detachNewThread {
                _ = try? keychain.copyMatching(protectedQuery)
                protectedDone.signal()
            }
            usleep(300_000)
            let started = Date()
            let plain = try keychain.copyMatching(query("plain"))
            #expect(plain.first?.data.map { String(decoding: $0.bytes, as: UTF8.self) } == "plain")
            #expect(Date().timeIntervalSince(started) < 2, "the plain read waited for the prompt")
            #expect(protectedDone.wait(timeout: .now() + 20) == .success)
            _ = user.transcript()
        }
    }

    @Test func anUpdateAsksOnceAndOutsideItsTransaction() async throws {
        let pam = try PAMServiceFixture(password: password)
        defer { pam.remove() }
        let user = try TerminalUser()
        try await withAuthenticatingKeychain(enrolled: false, owner: owner(pam, terminal: user.path)) { keychain, _ in
            #expect(
                addPassword("rotated", service: "com.app.owner", secret: "old", flags: .devicePasscode)
                    == errSecSuccess)

            // A second prompt would get Control-D and cancel the update.
            user.answer([password, nil], delay: 3)
            let updated = DispatchSemaphore(value: 0)
            let status = Mutex<OSStatus?>(nil)
            let query = ItemQuery(
                itemClass: .genericPassword,
                attributes: [.service: .string("com.app.owner"), .account: .string("rotated")], limit: .all)
            Thread.detachNewThread {
                do {
                    try keychain.update(query, with: ItemChanges(data: Array("new".utf8)))
                    status.withLock { $0 = errSecSuccess }
                } catch let error as KeychainError {
                    status.withLock { $0 = error.status }
                } catch {}
                updated.signal()
            }
            usleep(300_000)
            // Another writer while the user is still typing.
            let started = Date()
            try keychain.add(
                NewItem(
                    itemClass: .genericPassword,
                    attributes: [.service: .string("com.app.owner"), .account: .string("other")], data: Array("x".utf8))
            )
            #expect(Date().timeIntervalSince(started) < 2, "the add waited for the update's prompt")
            #expect(updated.wait(timeout: .now() + 20) == .success)
            #expect(status.withLock { $0 } == errSecSuccess)
            // Without a context the read needs a prompt of its own, which UIFail refuses: the secret is sealed.
            let noPrompt = [kSecUseAuthenticationUI as String: kSecUseAuthenticationUIFail]
            #expect(readPassword("rotated", service: "com.app.owner", extra: noPrompt).0 == errSecInteractionNotAllowed)
        }
    }
}
