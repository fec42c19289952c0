import Testing

@testable import KeychainLint

/// KL304 at medium for the classic evaluatePolicy bypasses, so the default `--fail-on medium` stops them; silent
/// when the evaluated context is handed on to the keychain (reviewer's cases c2, c12, c13).
@Suite struct EvaluatePolicyBypassTests {
    func severities(_ source: String) -> [String] {
        findings(in: source).filter { $0.rule.id == "KL304" }.map { "\($0.position.line):\($0.severity.rawValue)" }
    }

    @Test func replyHandedToTheCaller() {
        let source = """
            import LocalAuthentication
            func auth(reply: @escaping (Bool, Error?) -> Void) {
                let context = LAContext()
                context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "verify", reply: reply)
            }
            """
        #expect(severities(source) == ["4:medium"])
    }

    @Test func appLockFlag() {
        let source = """
            import LocalAuthentication
            final class AppLock: ObservableObject {
                @Published var isUnlocked = false
                func unlock() {
                    let context = LAContext()
                    context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Unlock app") { success, _ in
                        Task { @MainActor in self.isUnlocked = success }
                    }
                }
            }
            """
        #expect(severities(source) == ["6:medium"])
    }

    @Test func guardThenShowSecrets() {
        let source = """
            import LocalAuthentication
            final class Screen {
                let ctx = LAContext()
                func unlock2() {
                    ctx.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Unlock") { [weak self] ok, _ in
                        guard ok else { return }
                        DispatchQueue.main.async { self?.showSecrets() }
                    }
                }
                func showSecrets() {}
            }
            """
        #expect(severities(source) == ["5:medium"])
    }

    @Test func privilegedFunctionName() {
        let source = """
            import LocalAuthentication
            final class LoginViewController {
                var onDone: (() -> Void)?
                func unlockVault() {
                    let context = LAContext()
                    context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock") { s, _ in
                        if s { DispatchQueue.main.async { self.onDone?() } }
                    }
                }
            }
            """
        #expect(severities(source) == ["6:medium"])
    }

    /// A step of the interface stays low.
    @Test func interfaceStepStaysLow() {
        let source = """
            import LocalAuthentication
            final class Settings {
                func confirm() {
                    let context = LAContext()
                    context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Confirm") { ok, _ in
                        if ok { self.dismiss() }
                    }
                }
                func dismiss() {}
            }
            """
        #expect(severities(source) == ["5:low"])
    }

    /// The evaluated context is returned for use as kSecUseAuthenticationContext elsewhere: not a gate.
    @Test func evaluatedContextReturnedOrPassedOn() {
        let returned = """
            import LocalAuthentication
            final class BiometricAuthenticator {
                func authenticatedContext() async throws -> LAContext {
                    let context = LAContext()
                    context.touchIDAuthenticationAllowableReuseDuration = 10
                    try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Sign in")
                    return context
                }
            }
            """
        let passed = """
            import LocalAuthentication
            final class Reader {
                func readToken(store: TokenStore) async throws -> Data? {
                    let context = LAContext()
                    try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Read the token")
                    return try store.read(context: context)
                }
            }
            """
        #expect(severities(returned).isEmpty)
        #expect(severities(passed).isEmpty)
    }
}
