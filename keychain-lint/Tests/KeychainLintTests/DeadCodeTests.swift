import Testing

@testable import KeychainLint

/// `#if false` (Swift) and `#if 0` (Objective-C) clauses are never compiled: nothing in them is reported, while
/// their `#else` and every other condition are still read (reviewer's case c15).
@Suite struct DeadCodeTests {
    static let alwaysItem = """
        let old: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
            kSecAttrAccessible as String: kSecAttrAccessibleAlways, kSecValueData as String: data]
        SecItemAdd(old as CFDictionary, nil)
        """

    @Test func swiftIfFalseIsPruned() {
        let source = "import Security\nfunc save(_ data: Data) {\n#if false\n" + Self.alwaysItem + "\n#endif\n}\n"
        #expect(locations(of: "KL101", in: source).isEmpty)
    }

    @Test func swiftIfFalseAtTypeLevelIsPruned() {
        let source =
            "import Security\nstruct S {\n#if false\nfunc save(_ data: Data) {\n" + Self.alwaysItem + "\n}\n#endif\n}\n"
        #expect(locations(of: "KL101", in: source).isEmpty)
    }

    @Test func swiftElseOfIfFalseAndOtherConditionsAreRead() {
        let elseBranch =
            "import Security\nfunc save(_ data: Data) {\n#if false\nprint(1)\n#else\n" + Self.alwaysItem
            + "\n#endif\n}\n"
        let debug = "import Security\nfunc save(_ data: Data) {\n#if DEBUG\n" + Self.alwaysItem + "\n#endif\n}\n"
        #expect(locations(of: "KL101", in: elseBranch) == ["7:35"])
        #expect(locations(of: "KL101", in: debug) == ["5:35"])
    }

    /// A runtime `if false { ... }` body (and the `else` of `if true`) never runs either: what it writes into an
    /// item, the SecItem calls and access controls it makes, and the wrapper calls in it are not findings.
    @Test func swiftRuntimeIfFalseBodiesAreSilent() {
        let source = """
            import Security
            import SwiftKeychainWrapper
            func save(_ data: Data, access: SecAccessControl) -> OSStatus {
                var query: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "token",
                    kSecValueData as String: data,
                ]
                if false {
                    query[kSecAttrAccessible as String] = kSecAttrAccessibleAlways
                    query[kSecAttrAccessControl as String] = access
                    SecItemDelete(query as CFDictionary)
                    _ = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .biometryAny, nil)
                    KeychainWrapper.standard.set("v", forKey: "k", withAccessibility: .always)
                    if SecItemUpdate(query as CFDictionary, [:] as CFDictionary) == errSecDuplicateItem { print("kept") }
                }
                if true {
                    query[kSecAttrAccessible as String] = kSecAttrAccessibleWhenUnlockedThisDeviceOnly
                } else {
                    let old: [String: Any] = [kSecAttrAccessible as String: kSecAttrAccessibleAlwaysThisDeviceOnly]
                    SecItemAdd(old as CFDictionary, nil)
                }
                return SecItemAdd(query as CFDictionary, nil)
            }
            """
        let rules = ["KL101", "KL208", "KL209", "KL301", "KL303"]
        #expect(findings(in: source).filter { rules.contains($0.rule.id) }.isEmpty)
        // The same code under a condition that can go either way is reported.
        let live = source.replacingOccurrences(of: "if false", with: "if data.isEmpty")
            .replacingOccurrences(of: "if true", with: "if data.isEmpty")
        let found = findings(in: live).filter { rules.contains($0.rule.id) }.map {
            "\($0.rule.id) \($0.position.line):\($0.position.column)"
        }
        #expect(
            found == [
                "KL301 9:15", "KL101 9:47", "KL208 11:9", "KL303 12:82", "KL101 13:75", "KL209 14:73", "KL301 17:15",
                "KL101 19:65", "KL208 20:9",
            ])
    }

    /// The same for the rules that read a body themselves: a delete on a read error (KL202), a forced cast of the
    /// result (KL207) and a background read of a WhenUnlocked item (KL505) in an `if false` body are not findings.
    @Test func readsDeletesAndCastsInDeadBodiesAreSilent() {
        let store = SourceFile(
            path: "SessionStore.swift",
            text: """
                func save(_ token: Data) -> OSStatus {
                    SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrService: "session",
                                kSecValueData: token] as CFDictionary, nil)
                }
                """)
        let source = """
            final class AppDelegate {
                let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "session"]
                func load() -> Data? {
                    var result: CFTypeRef?
                    let status = SecItemCopyMatching(query as CFDictionary, &result)
                    if status != errSecSuccess {
                        if false { _ = SecItemDelete(query as CFDictionary) }
                        return nil
                    }
                    if false { return (result as! Data) }
                    return result as? Data
                }
                func application(_ application: UIApplication,
                                 performFetchWithCompletionHandler completionHandler: @escaping (Result) -> Void) {
                    if false {
                        var result: CFTypeRef?
                        _ = SecItemCopyMatching([kSecClass: kSecClassGenericPassword, kSecAttrService: "session",
                                                 kSecReturnData: true] as CFDictionary, &result)
                    }
                    completionHandler(.newData)
                }
            }
            """
        let rules = ["KL202", "KL207", "KL505"]
        func found(_ text: String) -> [String] {
            findings(in: text, path: "AppDelegate.swift", with: [store]).filter { rules.contains($0.rule.id) }.map {
                "\($0.rule.id) \($0.position.line):\($0.position.column)"
            }
        }
        #expect(found(source).isEmpty)
        let live = source.replacingOccurrences(of: "if false", with: "if result == nil")
        #expect(found(live) == ["KL202 7:36", "KL207 10:36", "KL505 17:17"])
    }

    @Test func objectiveCIfZeroIsPruned() {
        let source = """
            #import <Security/Security.h>
            @implementation Legacy
            - (void)save:(NSData *)data {
            #if 0
                NSDictionary *old = @{ (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleAlways };
                SecItemAdd((__bridge CFDictionaryRef)old, NULL);
            #if DEBUG
                NSLog(@"nested");
            #endif
            #else
                NSDictionary *live = @{ (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleAlways };
                SecItemAdd((__bridge CFDictionaryRef)live, NULL);
            #endif
            #if 0
                NSDictionary *older = @{ (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleAlways };
            #endif
            }
            @end
            """
        #expect(locations(of: "KL101", in: source, path: "Legacy.m") == ["11:75"])
    }
}
