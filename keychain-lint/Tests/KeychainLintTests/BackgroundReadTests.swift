import Testing

@testable import KeychainLint

/// An item only readable while unlocked, read from code that runs in the background while the device is locked.
@Suite struct BackgroundReadTests {
    static let store = SourceFile(
        path: "SessionStore.swift",
        text: """
            final class SessionStore {
                func save(_ token: Data) {
                    SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrService: "session",
                                kSecValueData: token] as CFDictionary, nil)
                }
                func sessionToken() -> Data? {
                    var result: CFTypeRef?
                    SecItemCopyMatching([kSecClass: kSecClassGenericPassword, kSecAttrService: "session",
                                         kSecReturnData: true] as CFDictionary, &result)
                    return result as? Data
                }
            }
            """)

    @Test func backgroundEntryPointsReadingAWhenUnlockedItemAreReported() {
        let source = """
            import BackgroundTasks
            final class AppDelegate {
                let keychainStore = SessionStore()
                func application(_ application: UIApplication,
                                 performFetchWithCompletionHandler completionHandler: @escaping (Result) -> Void) {
                    let token = keychainStore.sessionToken()
                    completionHandler(.newData)
                }
                func registerTasks() {
                    BGTaskScheduler.shared.register(forTaskWithIdentifier: "refresh", using: nil) { task in
                        var result: CFTypeRef?
                        SecItemCopyMatching([kSecClass: kSecClassGenericPassword, kSecAttrService: "session",
                                             kSecReturnData: true] as CFDictionary, &result)
                    }
                }
                func showProfile() {
                    let token = keychainStore.sessionToken()
                }
            }
            """
        let found = findings(in: source, path: "AppDelegate.swift", with: [Self.store])
            .filter { $0.rule.id == "KL505" }
        #expect(found.map { "\($0.position.line):\($0.position.column)" } == ["6:21", "12:13"])
        #expect(found.first?.message.contains("errSecInteractionNotAllowed") == true)
    }

    @Test func afterFirstUnlockItemsAndOtherItemsStaySilent() {
        let afterFirstUnlock = SourceFile(
            path: "SessionStore.swift",
            text: Self.store.text.replacingOccurrences(
                of: "kSecValueData: token]",
                with: "kSecValueData: token, kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock]"))
        let source = """
            final class AppDelegate {
                func application(_ application: UIApplication,
                                 didReceiveRemoteNotification userInfo: [AnyHashable: Any],
                                 fetchCompletionHandler completionHandler: @escaping (Result) -> Void) {
                    var result: CFTypeRef?
                    SecItemCopyMatching([kSecClass: kSecClassGenericPassword, kSecAttrService: "session",
                                         kSecReturnData: true] as CFDictionary, &result)
                    SecItemCopyMatching([kSecClass: kSecClassGenericPassword, kSecAttrService: "widget",
                                         kSecReturnData: true] as CFDictionary, &result)
                }
            }
            """
        #expect(locations(of: "KL505", in: source, with: [afterFirstUnlock]).isEmpty)
        #expect(locations(of: "KL505", in: source, with: [Self.store]) == ["6:9"])
    }
}
