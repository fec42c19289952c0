import Testing

@testable import KeychainLint

/// Messages that tell the truth about the fix and the consequence (reviewer's cases c4 and c6).
@Suite struct FindingMessageTests {
    func messages(_ rule: String, _ source: String) -> [String] {
        findings(in: source).filter { $0.rule.id == rule }.map(\.message)
    }

    /// A wrapper's ThisDeviceOnly Always class is replaced by the ThisDeviceOnly variant, which keeps the item off
    /// backups and other devices, as the direct-constant path suggests.
    @Test func wrapperAlwaysThisDeviceOnlyKeepsThisDeviceOnly() {
        let source = """
            import KeychainAccess
            func a(token: String) {
                let k2 = Keychain(service: "x").accessibility(.alwaysThisDeviceOnly)
                k2["t"] = token
                let k1 = Keychain(service: "y").accessibility(.always)
                k1["t"] = token
            }
            """
        let found = messages("KL101", source)
        #expect(found.count == 2)
        #expect(found.first?.hasSuffix("use .afterFirstUnlockThisDeviceOnly") == true)
        #expect(found.last?.hasSuffix("use .afterFirstUnlock") == true)
    }

    /// iOS stores a synchronizable item with a ThisDeviceOnly class; only an access control makes the add fail.
    @Test func syncWithThisDeviceOnlySaysWhatHappens() {
        let source = """
            import Security
            func e(_ data: Data) -> OSStatus {
                let q: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "e",
                    kSecAttrSynchronizable as String: kCFBooleanTrue!,
                    kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
                    kSecValueData as String: data]
                return SecItemAdd(q as CFDictionary, nil)
            }
            """
        let found = messages("KL302", source)
        #expect(found.count == 1)
        #expect(found.first?.contains("errSecParam") == false)
        #expect(found.first?.contains("does not sync") == true)
    }
}
