import Testing

@testable import KeychainLint

/// What a LocalAuthentication boolean guards decides how much it matters; a passcode fallback is a policy choice.
@Suite struct AuthenticationPolicyTests {
    @Test func aBooleanInFrontOfASecretIsMedium() {
        let source = """
            import LocalAuthentication
            func revealRecoveryPhrase(context: LAContext) {
                context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Show phrase") { success, _ in
                    guard success else { return }
                    self.phraseLabel.text = self.vault.recoveryPassword
                }
            }
            """
        let found = findings(in: source).filter { $0.rule.id == "KL304" }
        #expect(found.map(\.severity) == [.medium])
        #expect(found.first?.message.contains("secret") == true)
    }

    @Test func aBooleanInFrontOfUIOnlyIsLow() {
        let source = """
            import LocalAuthentication
            func confirmLeaving(team: Team, context: LAContext) {
                context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Leave team") { success, _ in
                    if success { self.teams.leave(team); self.dismiss(animated: true) }
                }
            }
            func exitKiosk(context: LAContext) async {
                let allowed =
                    (try? await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Exit")) ?? false
                if allowed { kioskMode = false }
            }
            """
        let found = findings(in: source).filter { $0.rule.id == "KL304" }
        #expect(found.map(\.severity) == [.low, .low])
        #expect(found.allSatisfy { $0.message.contains("only") })
    }

    @Test func userPresenceProtectingASecretIsAPolicyNote() {
        let source = """
            func protect(token: Data) {
                let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                                                             .userPresence, nil)
                let item: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                           kSecAttrAccount as String: "session-token",
                                           kSecAttrAccessControl as String: access as Any,
                                           kSecValueData as String: token]
                SecItemAdd(item as CFDictionary, nil)
            }
            """
        let found = findings(in: source).filter { $0.rule.id == "KL306" }
        #expect(found.map { "\($0.position.line):\($0.position.column)" } == ["3:50"])
        #expect(found.map(\.severity) == [.info])
        #expect(found.first?.message.contains("passcode") == true)
    }
}

/// One statement gets one finding: a low or info note is not added beside the real problem.
@Suite struct OneFindingPerStatementTests {
    @Test func aMigrationNoteIsNotAddedBesideAnInvalidCombination() {
        let source = """
            func save(password: Data, access: SecAccessControl) {
                let add: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                    kSecAttrAccount as String: "password",
                    kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock,
                    kSecAttrAccessControl as String: access,
                    kSecValueData as String: password]
                SecItemAdd(add as CFDictionary, nil)
            }
            """
        let ids = findings(in: source).map(\.rule.id)
        // The discarded status (KL208, medium) is a problem of its own, not a note beside KL301.
        #expect(ids == ["KL301", "KL208"])
    }

    @Test func oneAddIsReportedOnceForAMissingClass() {
        let source = """
            func save(_ data: Data) {
                let query = [kSecClass: kSecClassGenericPassword, kSecValueData: data] as CFDictionary
                if SecItemAdd(query, nil) != errSecSuccess, SecItemAdd(query, nil) != errSecSuccess { return }
            }
            """
        #expect(locations(of: "KL102", in: source) == ["3:8"])
    }
}

/// Forced casts of what a keychain read returns, wherever the value travels.
@Suite struct ForcedResultShapeTests {
    @Test func attributesReadFromAResultDictionaryAreReported() {
        let source = """
            extension KeychainStore {
                func account(from attributes: [String: Any]) -> String {
                    attributes[kSecAttrAccount as String] as! String
                }
                func data(query: [String: Any]) -> Data? {
                    var result: AnyObject?
                    guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess,
                          let resultDictionary = result as? [String: Any] else { return nil }
                    let label = resultDictionary[kSecAttrLabel as String] as? String
                    return resultDictionary[kSecValueData as String] as! Data
                }
            }
            """
        #expect(locations(of: "KL207", in: source) == ["3:9", "10:16"])
    }

    @Test func resultsReadInsideWithUnsafeMutablePointerAreReported() {
        let source = """
            func read(query: [String: Any]) -> Data? {
                var result: AnyObject?
                let status = withUnsafeMutablePointer(to: &result) {
                    SecItemCopyMatching(query as CFDictionary, UnsafeMutablePointer($0))
                }
                guard status == errSecSuccess else { return nil }
                return (result as! Data)
            }
            """
        #expect(locations(of: "KL207", in: source) == ["7:13"])
    }
}
