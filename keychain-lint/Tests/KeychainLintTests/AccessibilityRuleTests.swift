import Testing

@testable import KeychainLint

@Suite struct AccessibilityRuleTests {
    @Test func alwaysWrittenIntoAnAddDictionaryIsReported() {
        let source = """
            func save(_ data: Data) {
                let query: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword,
                    kSecAttrService as String: "svc",
                    kSecAttrAccount as String: "acct",
                    kSecAttrAccessible as String: kSecAttrAccessibleAlways,
                    kSecValueData as String: data,
                ]
                SecItemAdd(query as CFDictionary, nil)
            }
            """
        #expect(locations(of: "KL101", in: source) == ["6:39"])
    }

    @Test func aliasesOfTheKeyAndTheValueAreFollowed() {
        let source = """
            enum Keys {
                static let accessible = String(kSecAttrAccessible)
            }
            let legacyClass = kSecAttrAccessibleAlwaysThisDeviceOnly
            func save(_ data: Data) {
                var item = [String: Any]()
                item[kSecClass as String] = kSecClassGenericPassword
                let value = legacyClass
                item[Keys.accessible] = value
                SecItemAdd(item as CFDictionary, nil)
                var attributes: [String: Any] = [:]
                attributes[String(kSecAttrAccessible)] = kSecAttrAccessibleAlways as String
                SecItemUpdate(item as CFDictionary, attributes as CFDictionary)
            }
            """
        #expect(locations(of: "KL101", in: source) == ["9:29", "12:46"])
    }

    @Test func mappingTablesSwitchesCommentsAndReadQueriesStaySilent() {
        let source = """
            // Never use kSecAttrAccessibleAlways: kSecAttrAccessible: kSecAttrAccessibleAlways
            let documentation = "kSecAttrAccessible: kSecAttrAccessibleAlways"
            enum Accessibility {
                case always, afterFirstUnlock
                var rawValue: CFString {
                    switch self {
                    case .always: return kSecAttrAccessibleAlways
                    case .afterFirstUnlock: return kSecAttrAccessibleAfterFirstUnlock
                    }
                }
            }
            let table: [String: CFString] = ["always": kSecAttrAccessibleAlways]
            func findLegacyItems() {
                let query: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword,
                    kSecAttrAccessible as String: kSecAttrAccessibleAlways,
                    kSecMatchLimit as String: kSecMatchLimitAll,
                ]
                var result: AnyObject?
                SecItemCopyMatching(query as CFDictionary, &result)
                SecItemDelete(query as CFDictionary)
            }
            """
        #expect(locations(of: "KL101", in: source).isEmpty)
    }

    @Test func wrapperAccessibilityArgumentsAreReported() {
        let source = """
            func configure() {
                let keychain = Keychain(service: "svc").accessibility(.always)
                KeychainWrapper.standard.set("v", forKey: "k", withAccessibility: .alwaysThisDeviceOnly)
                let fine = Keychain(service: "svc").accessibility(.afterFirstUnlock)
                let unrelated = Formatter(style: .always)
            }
            """
        #expect(locations(of: "KL101", in: source) == ["2:59", "3:71"])
    }

    @Test func accessControlWithAlwaysIsReported() {
        let source = """
            let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleAlways, .userPresence, nil)
            """
        #expect(locations(of: "KL101", in: source) == ["1:51"])
    }

    @Test func addWithoutAccessibilityIsLowSeverity() {
        let source = """
            func save(_ data: Data) {
                let query: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword,
                    kSecAttrService as String: "svc",
                    kSecAttrAccount as String: "acct",
                    kSecValueData as String: data,
                ]
                SecItemAdd(query as CFDictionary, nil)
            }
            func saveWithClass(_ data: Data, base: [String: Any]) {
                var query: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword, kSecValueData as String: data,
                ]
                if #available(iOS 13, *) {
                    query[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
                }
                SecItemAdd(query as CFDictionary, nil)
                var merged = base
                merged[kSecValueData as String] = data
                SecItemAdd(merged as CFDictionary, nil)
            }
            """
        let found = findings(in: source).filter { $0.rule.id == "KL102" }
        #expect(found.map { "\($0.position.line):\($0.position.column)" } == ["8:5"])
        #expect(found.first?.severity == .low)
    }

    @Test func migratingClassForCredentialsIsInfo() {
        let source = """
            func save(_ data: Data) {
                SecItemAdd([
                    kSecClass: kSecClassGenericPassword,
                    kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock,
                    kSecAttrAccount: "refreshToken",
                ] as CFDictionary, nil)
                SecItemAdd([
                    kSecClass: kSecClassCertificate,
                    kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock,
                ] as CFDictionary, nil)
                SecItemAdd([
                    kSecClass: kSecClassKey,
                    kSecAttrAccessible: kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                ] as CFDictionary, nil)
                SecItemAdd([
                    kSecClass: kSecClassGenericPassword,
                    kSecAttrAccessible: kSecAttrAccessibleWhenUnlocked,
                    kSecAttrAccount: "installIdentifier",
                    kSecValueData: data,
                ] as CFDictionary, nil)
            }
            """
        #expect(locations(of: "KL103", in: source) == ["4:29"])
    }

    @Test func objectiveCDictionariesAndCastsAreFollowed() {
        let source = """
            - (void)store:(NSData *)token {
                NSMutableDictionary *dict = [NSMutableDictionary dictionary];
                [dict setObject:(__bridge id)kSecClassGenericPassword forKey:(__bridge id)kSecClass];
                [dict setObject:token forKey:(__bridge id)kSecValueData];
                // [dict setObject:(__bridge id)kSecAttrAccessibleAlways forKey:(__bridge id)kSecAttrAccessible];
                NSString *note = @"kSecAttrAccessibleAlways";
                [dict setObject:(__bridge id)kSecAttrAccessibleAlways forKey:(__bridge id)kSecAttrAccessible];
                SecItemAdd((__bridge CFDictionaryRef)dict, NULL);
                NSDictionary *literal = @{ (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleAlways };
                SecItemAdd((__bridge CFDictionaryRef)literal, NULL);
                NSDictionary *old = [NSDictionary dictionaryWithObjectsAndKeys:
                    (__bridge id)kSecAttrAccessibleAlwaysThisDeviceOnly, (__bridge id)kSecAttrAccessible, nil];
                SecItemAdd((__bridge CFDictionaryRef)old, NULL);
            }
            """
        #expect(locations(of: "KL101", in: source, path: "Store.m") == ["7:34", "9:78", "12:22"])
    }

    @Test func accessibleWithAccessControlOnOnePathIsReported() {
        let source = """
            func save(_ data: Data, access: SecAccessControl, protected: Bool) {
                var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword]
                if protected {
                    query[kSecAttrAccessControl as String] = access
                } else {
                    query[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock
                }
                SecItemAdd(query as CFDictionary, nil)
                let both: [String: Any] = [
                    kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked,
                    kSecAttrAccessControl as String: access,
                ]
                SecItemAdd(both as CFDictionary, nil)
                switch protected {
                case true: query[kSecAttrAccessControl as String] = access
                case false: query[kSecAttrAccessible as String] = kSecAttrAccessibleWhenUnlocked
                }
            }
            """
        #expect(locations(of: "KL301", in: source) == ["10:9"])
    }

    @Test func synchronizableConflictsAreReported() {
        let source = """
            func save(access: SecAccessControl) {
                SecItemAdd([
                    kSecAttrSynchronizable: kCFBooleanTrue!,
                    kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
                ] as CFDictionary, nil)
                SecItemAdd([
                    kSecAttrSynchronizable as String: true,
                    kSecAttrAccessControl as String: access,
                ] as CFDictionary, nil)
                SecItemAdd([
                    kSecAttrSynchronizable: kCFBooleanTrue!,
                    kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock,
                ] as CFDictionary, nil)
                SecItemCopyMatching([
                    kSecAttrSynchronizable: kSecAttrSynchronizableAny,
                    kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
                ] as CFDictionary, nil)
            }
            """
        #expect(locations(of: "KL302", in: source) == ["3:9", "7:9"])
    }
}
