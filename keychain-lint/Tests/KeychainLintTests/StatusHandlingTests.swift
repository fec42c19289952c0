import Testing

@testable import KeychainLint

/// KL208 and KL209, the release checklist's error handling: every SecItem call's OSStatus is checked, and
/// errSecDuplicateItem is handled (updated, or the failure thrown or returned), not swallowed or only logged.
@Suite struct StatusHandlingTests {
    @Test func discardedStatus() {
        let source = """
            import Security
            func save(_ q: [String: Any], _ attributes: [String: Any]) {
                SecItemAdd(q as CFDictionary, nil)
                _ = SecItemUpdate(q as CFDictionary, attributes as CFDictionary)
                SecItemDelete(q as CFDictionary)
            }
            """
        #expect(locations(of: "KL208", in: source) == ["3:5", "4:9", "5:5"])
    }

    @Test func discardedStatusInObjectiveC() {
        let source = """
            - (void)save:(NSDictionary *)q {
                SecItemAdd((__bridge CFDictionaryRef)q, NULL);
                (void)SecItemDelete((__bridge CFDictionaryRef)q);
                OSStatus status = SecItemAdd((__bridge CFDictionaryRef)q, NULL);
                if (status != errSecSuccess) { NSLog(@"failed %d", (int)status); }
            }
            """
        #expect(locations(of: "KL208", in: source, path: "Store.m") == ["2:5", "3:11"])
    }

    @Test func checkedStatusIsSilent() {
        let source = """
            import Security
            func save(_ q: [String: Any]) throws -> Bool {
                let status = SecItemAdd(q as CFDictionary, nil)
                guard SecItemDelete(q as CFDictionary) == errSecSuccess else { return false }
                if SecItemUpdate(q as CFDictionary, q as CFDictionary) != errSecSuccess { return false }
                return status == errSecSuccess
            }
            func check(_ q: [String: Any]) -> OSStatus { SecItemAdd(q as CFDictionary, nil) }
            """
        #expect(locations(of: "KL208", in: source).isEmpty)
    }

    @Test func duplicateItemSwallowed() {
        let source = """
            import Security
            func save(_ q: [String: Any]) {
                let status = SecItemAdd(q as CFDictionary, nil)
                if status == errSecDuplicateItem {
                    print("exists")
                    return
                }
                switch status {
                case errSecDuplicateItem: break
                default: break
                }
            }
            """
        #expect(locations(of: "KL209", in: source) == ["4:18", "9:10"])
    }

    @Test func duplicateItemHandledIsSilent() {
        let source = """
            import Security
            enum KeychainError: Error { case duplicate }
            func save(_ q: [String: Any], _ attributes: [String: Any], completion: (Bool) -> Void) throws -> OSStatus {
                var status = SecItemAdd(q as CFDictionary, nil)
                if status == errSecDuplicateItem {
                    status = SecItemUpdate(q as CFDictionary, attributes as CFDictionary)
                }
                if status == errSecDuplicateItem { throw KeychainError.duplicate }
                if status == errSecDuplicateItem { completion(false) }
                if status == errSecDuplicateItem { try updateItem(q) }
                if status == errSecDuplicateItem { return status }
                return status
            }
            func updateItem(_ q: [String: Any]) throws {}
            """
        #expect(locations(of: "KL209", in: source).isEmpty)
        #expect(locations(of: "KL208", in: source).isEmpty)
    }
}
