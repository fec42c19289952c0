import Testing

@testable import KeychainLint

/// KL101 and KL303 follow the protection class and the access-control flags to every value they can hold: both arms
/// of a conditional, a variable set in the arms of an `if`/`else` or a `switch`, a `??` default, and a property or a
/// function without parameters of the same file or of another file of the module. A weak value on any path is
/// reported where the item is written, and the message names the line (and the helper) it comes from. A value that
/// is overwritten before the write, set only in an arm dead by a literal condition or in an arm that excludes the
/// write, compared with, or picked by an enum case the code does not show, is not a finding.
@Suite struct ValueFlowTests {
    func messages(_ rule: String, in text: String, path: String = "Fixture.swift", with others: [SourceFile] = [])
        -> [String]
    {
        findings(in: text, path: path, with: others).filter { $0.rule.id == rule }.map(\.message)
    }

    // MARK: KL101

    @Test func alwaysOnOneArmOfAConditionalIsReportedWhereItIsWritten() {
        let source = """
            import Security
            func save(_ data: Data, isDebug: Bool) -> OSStatus {
                var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData: data]
                let accessibility = isDebug ? kSecAttrAccessibleAlways : kSecAttrAccessibleWhenUnlocked
                query[kSecAttrAccessible as String] = accessibility
                return SecItemAdd(query as CFDictionary, nil)
            }
            """
        #expect(locations(of: "KL101", in: source) == ["5:43"])
        let message = messages("KL101", in: source).first ?? ""
        #expect(message.contains("kSecAttrAccessibleAlways") && message.contains("`accessibility`"))
        #expect(message.contains("one branch (line 4)"))
        // The constant is not written where the finding is: no mechanical fix.
        #expect(findings(in: source).first { $0.rule.id == "KL101" }?.edit == nil)
    }

    @Test func aHelperFunctionAndAComputedPropertyOfTheFileAreFollowed() {
        let source = """
            import Security
            struct Store {
                var legacy = false
                func accessibility() -> CFString { return kSecAttrAccessibleAlways }
                var syncClass: CFString {
                    legacy ? kSecAttrAccessibleAlwaysThisDeviceOnly : kSecAttrAccessibleWhenUnlocked
                }
                func save(_ data: Data) -> OSStatus {
                    let q: [String: Any] = [kSecAttrAccessible as String: accessibility(), kSecValueData: data]
                    return SecItemAdd(q as CFDictionary, nil)
                }
                func sync(_ query: [String: Any]) -> OSStatus {
                    let attributes: [String: Any] = [kSecAttrAccessible as String: syncClass]
                    return SecItemUpdate(query as CFDictionary, attributes as CFDictionary)
                }
            }
            """
        #expect(locations(of: "KL101", in: source) == ["9:63", "13:72"])
        let found = messages("KL101", in: source)
        #expect(found.first?.contains("line 4 in `accessibility`") == true)
        #expect(found.last?.contains("kSecAttrAccessibleAlwaysThisDeviceOnly") == true)
        #expect(found.last?.contains("line 6 in `syncClass`") == true)
    }

    @Test func aVariableSetInTheArmsOfAnIfOrASwitchIsFollowed() {
        let source = """
            import Security
            enum Mode { case widget, app }
            func save(_ data: Data, legacy: Bool, mode: Mode) -> OSStatus {
                var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData: data]
                let accessibility: CFString
                if legacy {
                    accessibility = kSecAttrAccessibleAlways
                } else {
                    accessibility = kSecAttrAccessibleWhenUnlocked
                }
                query[kSecAttrAccessible as String] = accessibility
                var shared = kSecAttrAccessibleAfterFirstUnlock
                switch mode {
                case .widget: shared = kSecAttrAccessibleAlwaysThisDeviceOnly
                case .app: shared = kSecAttrAccessibleWhenUnlockedThisDeviceOnly
                }
                let attributes: [String: Any] = [kSecAttrAccessible as String: shared]
                let status = SecItemUpdate(query as CFDictionary, attributes as CFDictionary)
                return status == errSecItemNotFound ? SecItemAdd(query as CFDictionary, nil) : status
            }
            """
        #expect(locations(of: "KL101", in: source) == ["11:43", "17:68"])
        let found = messages("KL101", in: source)
        #expect(found.first?.contains("one branch (line 7)") == true)
        #expect(found.last?.contains("kSecAttrAccessibleAlwaysThisDeviceOnly") == true)
        #expect(found.last?.contains("line 14") == true)
    }

    @Test func aDefaultAfterNilCoalescingIsFollowed() {
        let source = """
            import Security
            func save(_ data: Data, override: CFString?) -> OSStatus {
                let accessibility = override ?? kSecAttrAccessibleAlways
                let q: [String: Any] = [kSecAttrAccessible as String: accessibility, kSecValueData as String: data]
                return SecItemAdd(q as CFDictionary, nil)
            }
            """
        #expect(locations(of: "KL101", in: source) == ["4:59"])
    }

    @Test func aHelperInAnotherFileOfTheModuleIsFollowed() {
        let config = """
            import Security
            enum KeychainConfig {
                static var isDebug = false
                static func accessibility() -> CFString {
                    isDebug ? kSecAttrAccessibleAlways : kSecAttrAccessibleWhenUnlocked
                }
                static var widgetClass: CFString {
                    if isDebug { return kSecAttrAccessibleAlwaysThisDeviceOnly }
                    return kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
                }
            }
            """
        let store = """
            import Security
            func save(_ data: Data) -> OSStatus {
                let q: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword,
                    kSecAttrAccessible as String: KeychainConfig.accessibility(),
                    kSecValueData as String: data,
                ]
                return SecItemAdd(q as CFDictionary, nil)
            }
            func share(_ query: [String: Any]) -> OSStatus {
                let widget = KeychainConfig.widgetClass
                return SecItemUpdate(query as CFDictionary, [kSecAttrAccessible as String: widget] as CFDictionary)
            }
            """
        let others = [SourceFile(path: "App/KeychainConfig.swift", text: config)]
        #expect(locations(of: "KL101", in: store, path: "App/Store.swift", with: others) == ["5:39", "12:80"])
        let found = messages("KL101", in: store, path: "App/Store.swift", with: others)
        #expect(found.first?.contains("KeychainConfig.swift line 5 in `accessibility`") == true)
        #expect(found.last?.contains("KeychainConfig.swift line 8 in `widgetClass`") == true)
        // The helpers only name the constants; they write no item.
        #expect(locations(of: "KL101", in: config, path: "App/KeychainConfig.swift", with: []).isEmpty)
    }

    @Test func theClassOfAnAccessControlIsFollowed() {
        let source = """
            import Security
            func access(legacy: Bool) -> SecAccessControl? {
                let protection = legacy ? kSecAttrAccessibleAlwaysThisDeviceOnly : kSecAttrAccessibleWhenUnlocked
                return SecAccessControlCreateWithFlags(nil, protection, .userPresence, nil)
            }
            """
        #expect(locations(of: "KL101", in: source) == ["4:49"])
    }

    @Test func anOverwrittenDeadComparedOrOtherwiseExcludedAlwaysIsSilent() {
        let source = """
            import Security
            func save(_ data: Data, current: CFString) -> [OSStatus] {
                var accessibility = kSecAttrAccessibleAlways
                accessibility = kSecAttrAccessibleAfterFirstUnlock
                var legacy = kSecAttrAccessibleWhenUnlocked
                if false { legacy = kSecAttrAccessibleAlways }
                if true { print("kept") } else { legacy = kSecAttrAccessibleAlwaysThisDeviceOnly }
                let fallback = false ? kSecAttrAccessibleAlways : kSecAttrAccessibleWhenUnlocked
                var migrated = current
                if migrated == kSecAttrAccessibleAlways { migrated = kSecAttrAccessibleAfterFirstUnlock }
                switch current {
                case kSecAttrAccessibleAlways: print("an old item")
                default: break
                }
                let items: [[String: Any]] = [
                    [kSecAttrAccessible as String: accessibility, kSecValueData as String: data],
                    [kSecAttrAccessible as String: legacy, kSecValueData as String: data],
                    [kSecAttrAccessible as String: fallback, kSecValueData as String: data],
                    [kSecAttrAccessible as String: migrated, kSecValueData as String: data],
                ]
                return items.map { SecItemAdd($0 as CFDictionary, nil) }
            }
            """
        #expect(locations(of: "KL101", in: source).isEmpty)
        // The same items are reported once the conditions can go either way, and the value is not overwritten.
        let live = source.replacingOccurrences(of: "if false", with: "if current == kSecAttrAccessibleAlways")
            .replacingOccurrences(of: "if true", with: "if current == kSecAttrAccessibleAlways")
            .replacingOccurrences(of: "false ?", with: "current == kSecAttrAccessibleAlways ?")
            .replacingOccurrences(of: "    accessibility = kSecAttrAccessibleAfterFirstUnlock\n", with: "")
        #expect(locations(of: "KL101", in: live) == ["15:40", "16:40", "17:40"])
    }

    @Test func anArmThatReturnsDoesNotReachTheCodeAfterIt() {
        let source = """
            import Security
            func save(_ data: Data, legacy: Bool) -> OSStatus {
                var accessibility = kSecAttrAccessibleWhenUnlocked
                if legacy {
                    accessibility = kSecAttrAccessibleAlways
                    let old: [String: Any] = [kSecAttrAccessible as String: accessibility, kSecValueData: data]
                    return SecItemAdd(old as CFDictionary, nil)
                }
                let item: [String: Any] = [kSecAttrAccessible as String: accessibility, kSecValueData: data]
                return SecItemAdd(item as CFDictionary, nil)
            }
            """
        #expect(locations(of: "KL101", in: source) == ["6:65"])
        // Inside the arm the class is always Always: no other branch is mentioned.
        #expect(messages("KL101", in: source).first?.contains("branch") == false)
    }

    @Test func anEnumsMappingIsFollowedOnlyForAKnownCase() {
        let source = """
            import Security
            enum Protection {
                case always, afterFirstUnlock
                var constant: CFString {
                    switch self {
                    case .always: return kSecAttrAccessibleAlways
                    case .afterFirstUnlock: return kSecAttrAccessibleAfterFirstUnlock
                    }
                }
            }
            struct Store {
                var protection: Protection
                func save(_ data: Data) -> OSStatus {
                    let q: [String: Any] = [kSecAttrAccessible as String: protection.constant, kSecValueData: data]
                    return SecItemAdd(q as CFDictionary, nil)
                }
                func saveLegacy(_ data: Data) -> OSStatus {
                    let q: [String: Any] = [kSecAttrAccessible as String: Protection.always.constant]
                    return SecItemAdd(q as CFDictionary, nil)
                }
            }
            """
        #expect(locations(of: "KL101", in: source) == ["18:63"])
    }

    @Test func aConstantReportedWhereItIsPassedIsNotReportedAgainWhereItIsWritten() {
        let source = """
            import Security
            func store(_ data: Data, accessibility: CFString) -> OSStatus {
                let q: [String: Any] = [kSecAttrAccessible as String: accessibility, kSecValueData as String: data]
                return SecItemAdd(q as CFDictionary, nil)
            }
            func saveWidgetToken(_ data: Data) -> OSStatus {
                store(data, accessibility: kSecAttrAccessibleAlways)
            }
            """
        #expect(locations(of: "KL101", in: source) == ["7:32"])
    }

    // MARK: The analysis step

    /// `ConstantOrigins.possibleValues` gives every constant on any path and says whether something else is possible;
    /// `origins` (what KL607 and KL608 ask) answers only when the constants are all the value can be.
    @Test func possibleValuesListEveryConstantAndWhetherOthersRemain() throws {
        let source = """
            func pick(strict: Bool, override: SecPadding?) -> [SecPadding?] {
                let either = strict ? SecPadding.OAEP : .PKCS1
                let fallback = override ?? .PKCS1
                let both = strict ? SecPadding.PKCS1 : .PKCS1
                return [either, fallback, both]
            }
            """
        let unit = SwiftFrontend.parse(path: "Pick.swift", source: source)
        let origins = ConstantOrigins(unit: unit)
        guard case .returnStatement(let returned?) = unit.functions[0].body.last?.kind,
            case .array(let values) = returned.kind
        else { throw ValueFlowTestError.unexpectedShape }
        let isPKCS1: (String) -> Bool = { $0 == "PKCS1" }
        let either = origins.possibleValues(of: values[0], in: 0, isLeaf: isPKCS1)
        #expect(either.constants.map(\.position.line) == [2] && either.includesOthers)
        #expect(origins.origins(of: values[0], in: 0, isLeaf: isPKCS1) == nil)
        let fallback = origins.possibleValues(of: values[1], in: 0, isLeaf: isPKCS1)
        #expect(fallback.constants.map(\.position.line) == [3] && fallback.includesOthers)
        let both = origins.possibleValues(of: values[2], in: 0, isLeaf: isPKCS1)
        #expect(both.constants.count == 2 && !both.includesOthers)
        #expect(origins.origins(of: values[2], in: 0, isLeaf: isPKCS1)?.count == 2)
    }

    // MARK: KL303

    @Test func biometryAnyOnOnePathOfTheFlagsIsReportedAtTheCall() throws {
        let source = """
            import Security
            enum Mode { case payments, unlock }
            func makeAccess(strict: Bool, mode: Mode, override: SecAccessControlCreateFlags?) -> [SecAccessControl?] {
                let protection = kSecAttrAccessibleWhenUnlockedThisDeviceOnly
                let flags = strict ? SecAccessControlCreateFlags.biometryCurrentSet : .biometryAny
                let first = SecAccessControlCreateWithFlags(nil, protection, flags, nil)
                var chosen = SecAccessControlCreateFlags.biometryCurrentSet
                if !strict {
                    chosen = [.biometryAny, .or, .devicePasscode]
                }
                let second = SecAccessControlCreateWithFlags(nil, protection, chosen, nil)
                let level: SecAccessControlCreateFlags
                switch mode {
                case .payments: level = .biometryCurrentSet
                case .unlock: level = .biometryAny
                }
                let third = SecAccessControlCreateWithFlags(nil, protection, level, nil)
                let fallback = override ?? SecAccessControlCreateFlags.biometryAny
                let fourth = SecAccessControlCreateWithFlags(nil, protection, fallback, nil)
                return [first, second, third, fourth]
            }
            """
        #expect(locations(of: "KL303", in: source) == ["6:66", "11:67", "17:66", "19:67"])
        let found = messages("KL303", in: source)
        try #require(found.count == 4)
        #expect(found.first?.contains("`flags`") == true && found.first?.contains("one branch (line 5)") == true)
        #expect(found[1].contains("line 9"))
        #expect(found[2].contains("line 15"))
    }

    @Test func aTypedFlagsVariableIsReportedOnceAtItsConstant() {
        let source = """
            import Security
            func makeAccess(strict: Bool) -> SecAccessControl? {
                let flags: SecAccessControlCreateFlags = strict ? .biometryCurrentSet : .biometryAny
                return SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, nil)
            }
            """
        #expect(locations(of: "KL303", in: source) == ["3:77"])
    }

    @Test func flagsFromAHelperOfTheFileOrOfAnotherFileAreFollowed() {
        let source = """
            import Security
            struct Vault {
                var legacyDevices = false
                func policyFlags() -> SecAccessControlCreateFlags { legacyDevices ? .biometryAny : .biometryCurrentSet }
                func access() -> SecAccessControl? {
                    SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, policyFlags(), nil)
                }
            }
            """
        let policy = """
            import Security
            enum SecurityPolicy {
                static var strict = true
                static var flags: SecAccessControlCreateFlags { strict ? .biometryCurrentSet : .biometryAny }
            }
            """
        let vault = """
            import Security
            func makeAccess() -> SecAccessControl? {
                SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, SecurityPolicy.flags, nil)
            }
            """
        #expect(locations(of: "KL303", in: source) == ["6:78"])
        #expect(messages("KL303", in: source).first?.contains("line 4 in `policyFlags`") == true)
        let others = [SourceFile(path: "SecurityPolicy.swift", text: policy)]
        #expect(locations(of: "KL303", in: vault, path: "Vault.swift", with: others) == ["3:74"])
        let message = messages("KL303", in: vault, path: "Vault.swift", with: others).first ?? ""
        #expect(message.contains("SecurityPolicy.swift line 4 in `flags`"))
    }

    @Test func deadComparedAndCaseMappedBiometryAnyIsSilent() {
        let source = """
            import Security
            enum Policy {
                case any, current
                var flags: SecAccessControlCreateFlags {
                    switch self {
                    case .any: return .biometryAny
                    case .current: return .biometryCurrentSet
                    }
                }
            }
            func makeAccess(policy: Policy) -> [SecAccessControl?] {
                var flags = SecAccessControlCreateFlags.biometryCurrentSet
                if false { flags = .biometryAny }
                if flags == .biometryAny || flags.contains(.biometryAny) { flags = .biometryCurrentSet }
                let first = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, flags, nil)
                let second = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, policy.flags, nil)
                return [first, second]
            }
            """
        #expect(locations(of: "KL303", in: source).isEmpty)
        // Once the branch can be taken, or the case is known, the same flags are reported.
        let live = source.replacingOccurrences(of: "if false", with: "if Bool.random()")
            .replacingOccurrences(of: "policy.flags", with: "Policy.any.flags")
        #expect(locations(of: "KL303", in: live) == ["15:86", "16:87"])
    }
}

private enum ValueFlowTestError: Error {
    case unexpectedShape
}
