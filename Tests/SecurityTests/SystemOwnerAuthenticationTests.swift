import Foundation
import KeychainCore
import LocalAuthentication
import Security
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
            var error: Unmanaged<CFError>?
            let control = SecAccessControlCreateWithFlags(
                nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, .devicePasscode, &error)!
            let base: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "com.app.owner",
                kSecAttrAccount as String: "token",
            ]
            var add = base
            add[kSecAttrAccessControl as String] = control
            add[kSecValueData as String] = Data("the-token".utf8)
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)

            var read = base
            read[kSecReturnData as String] = true
            read[kSecUseOperationPrompt as String] = "Sign in to the test service"
            user.answer([password, "not it", nil])
            var result: AnyObject?
            #expect(SecItemCopyMatching(read as CFDictionary, &result) == errSecSuccess)
            #expect((result as? Data).map { String(decoding: $0, as: UTF8.self) } == "the-token")
            #expect(SecItemCopyMatching(read as CFDictionary, &result) == errSecAuthFailed)
            #expect(SecItemCopyMatching(read as CFDictionary, &result) == errSecUserCanceled)
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
}
