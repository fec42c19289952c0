import Testing

@testable import KeychainLint

@Suite struct AccessControlRuleTests {
    @Test func biometryAnyIsReportedAcrossLines() {
        let source = """
            func makeAccess() {
                let access = SecAccessControlCreateWithFlags(
                    nil,
                    kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
                    [.privateKeyUsage,
                     .biometryAny],
                    nil)
                let flags: SecAccessControlCreateFlags = .biometryAny
                let current = SecAccessControlCreateWithFlags(
                    nil, kSecAttrAccessibleWhenUnlocked, .biometryCurrentSet, nil)
                let menu = MenuItem(kind: .biometryAny)
                // .biometryAny is what most tutorials use
            }
            """
        #expect(locations(of: "KL303", in: source) == ["6:10", "8:46"])
    }

    /// A right of `LAAuthenticationRequirement.biometry` is granted to any enrolled finger or face, as a
    /// `.biometryAny` item opens: the same finding. With the passcode as its fallback it is a choice of
    /// `.userPresence`'s kind, not reported here.
    @Test func aRightOfAnyEnrolledBiometryIsReported() {
        let source = """
            import LocalAuthentication
            func save(_ token: Data) async throws {
                let right = LARight(requirement: .biometry)
                _ = try await LARightStore.shared.saveRight(right, identifier: "token", secret: token)
                let other = LARight(
                    requirement: .biometry(fallback: .default))
                let withPasscode = LARight(requirement: .biometry(fallback: .devicePasscode))
                let stored: LAAuthenticationRequirement = LAAuthenticationRequirement.biometry
                let strict = LARight(requirement: .biometryCurrentSet)
                let menu = Menu(kind: .biometry)
                let spelled = LARight(requirement: LAAuthenticationRequirement.biometry)
            }
            """
        #expect(locations(of: "KL303", in: source) == ["3:38", "6:22", "8:47", "11:40"])
    }

    @Test func objectiveCBiometryAnyFlagIsReported() {
        let source = """
            void makeAccess(void) {
                SecAccessControlRef access = SecAccessControlCreateWithFlags(kCFAllocatorDefault,
                    kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, kSecAccessControlBiometryAny, NULL);
            }
            """
        #expect(locations(of: "KL303", in: source, path: "Access.m") == ["3:58"])
    }

    @Test func evaluatePolicyAloneIsReported() {
        let source = """
            import LocalAuthentication
            func unlock(context: LAContext) {
                context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock") { ok, _ in
                    if ok { showVault() }
                }
            }
            """
        #expect(locations(of: "KL304", in: source) == ["3:5"])
    }

    @Test func evaluatePolicyBoundToTheKeychainStaysSilent() {
        let source = """
            import LocalAuthentication
            func unlock(context: LAContext) async throws {
                _ = try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Unlock")
                let query: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword,
                    kSecUseAuthenticationContext as String: context,
                    kSecReturnData as String: true,
                ]
                var result: AnyObject?
                SecItemCopyMatching(query as CFDictionary, &result)
            }
            """
        #expect(locations(of: "KL304", in: source).isEmpty)
    }

    /// An `LARight` that is authorized and then only checked is a boolean too: nothing cryptographic depends on
    /// it unless the right is persisted and its secret or key is used.
    @Test func anInMemoryRightUsedAsAGateIsReported() {
        let source = """
            import LocalAuthentication
            func openVault() async throws {
                let right = LARight()
                try await right.authorize(localizedReason: "Open the vault")
                if right.state == .authorized { showVault(loadToken()) }
            }
            func confirmLeave(_ right: LARight) {
                right.authorize(localizedReason: "Leave the team") { error in
                    if error == nil { leaveTeam() }
                }
            }
            """
        #expect(locations(of: "KL304", in: source) == ["4:15", "8:5"])
        let reported = findings(in: source).filter { $0.rule.id == "KL304" }
        #expect(reported.map(\.severity) == [.medium, .low])
        #expect(reported.first?.message.contains("LARight") == true)
    }

    @Test func aPersistedRightsSecretStaysSilent() {
        let source = """
            import LocalAuthentication
            func token() async throws -> Data {
                let right = try await LARightStore.shared.right(forIdentifier: "token")
                try await right.authorize(localizedReason: "Sign in")
                return try await right.secret.rawData
            }
            """
        #expect(locations(of: "KL304", in: source).isEmpty)
    }

    @Test func biometricsWithoutFaceIDUsageDescriptionAreReported() {
        let source = """
            func unlock(context: LAContext) {
                context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: nil)
            }
            """
        let plistWithout = SourceFile(
            path: "App/Info.plist", text: Self.plist(keys: "<key>CFBundleName</key><string>App</string>"))
        let plistWith = SourceFile(
            path: "App/Info.plist",
            text: Self.plist(keys: "<key>NSFaceIDUsageDescription</key><string>Unlock your vault</string>"))
        let settings = SourceFile(
            path: "App.xcodeproj/project.pbxproj",
            text: "\t\t\t\tINFOPLIST_KEY_NSFaceIDUsageDescription = \"Unlock your vault\";\n")
        #expect(locations(of: "KL305", in: source, with: [plistWithout]) == ["2:5"])
        #expect(locations(of: "KL305", in: source, with: [plistWith]).isEmpty)
        #expect(locations(of: "KL305", in: source, with: [settings]).isEmpty)
        // A library without an Info.plist has no target to judge.
        #expect(locations(of: "KL305", in: source).isEmpty)
    }

    static func plist(keys: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
            \(keys)
        </dict>
        </plist>
        """
    }

    /// Only code that binds authentication to a keychain item silences KL304: a table's `loadData()`, a packet's
    /// `rawData` or an access control for a key that asks for no authentication (`.privateKeyUsage`) is not one.
    @Test func unrelatedNamesDoNotSilenceTheGate() {
        let gate = """
            import LocalAuthentication
            final class AccountsViewController: UITableViewController {
                func unlock() {
                    LAContext().evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock") { ok, _ in
                        guard ok else { return }
                        DispatchQueue.main.async { self.loadData() }
                    }
                }

            """
        let unrelated = [
            "    func loadData() { tableView.reloadData() }\n}\n",
            "}\nstruct Packet { let rawData: Data }\nfunc size(_ p: Packet) -> Int { p.rawData.count }\n",
            """
                func keyAccess() -> SecAccessControl? {
                    SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .privateKeyUsage, nil)
                }
            }

            """,
        ]
        for tail in unrelated {
            #expect(locations(of: "KL304", in: gate + tail) == ["4:9"], "\(tail)")
        }
        let bound = [
            "    func read(_ right: Right) async throws -> Data { try await right.secret.loadData() }\n}\n",
            """
                func keyAccess() -> SecAccessControl? {
                    SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, [.privateKeyUsage, .biometryCurrentSet], nil)
                }
            }

            """,
            """
                func keyAccess(flags: SecAccessControlCreateFlags) -> SecAccessControl? {
                    SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, nil)
                }
            }

            """,
        ]
        for tail in bound {
            #expect(locations(of: "KL304", in: gate + tail).isEmpty, "\(tail)")
        }
    }
}
