import Testing

@testable import KeychainLint

@Suite struct ItemOperationRuleTests {
    @Test func deleteThenAddIsReported() {
        let source = """
            func save(_ data: Data) {
                let query: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword,
                    kSecAttrService as String: "svc",
                    kSecAttrAccount as String: "acct",
                ]
                SecItemDelete(query as CFDictionary)
                var item = query
                item[kSecValueData as String] = data
                SecItemAdd(item as CFDictionary, nil)
            }
            func saveOnDuplicate(_ item: [String: Any], query: [String: Any]) {
                let status = SecItemAdd(item as CFDictionary, nil)
                if status == errSecDuplicateItem {
                    SecItemDelete(query as CFDictionary)
                    SecItemAdd(item as CFDictionary, nil)
                }
            }
            """
        #expect(locations(of: "KL201", in: source) == ["7:5", "15:9"])
    }

    @Test func wrapperDeleteFollowedByAddIsReported() {
        let source = """
            final class Store {
                func remove(_ key: String) {
                    SecItemDelete([kSecAttrAccount: key] as CFDictionary)
                }
                func set(_ data: Data, forKey key: String) {
                    remove(key)
                    SecItemAdd([kSecAttrAccount: key, kSecValueData: data] as CFDictionary, nil)
                }
                func reorder(_ list: inout [Int]) {
                    list.remove(at: 0)
                    SecItemAdd([kSecAttrAccount: "x"] as CFDictionary, nil)
                }
            }
            """
        #expect(locations(of: "KL201", in: source) == ["6:9"])
    }

    @Test func correctSavePatternsStaySilent() {
        let source = """
            func save(_ data: Data, query: [String: Any]) {
                var status = SecItemUpdate(query as CFDictionary, [kSecValueData: data] as CFDictionary)
                if status == errSecItemNotFound {
                    var item = query
                    item[kSecValueData as String] = data
                    status = SecItemAdd(item as CFDictionary, nil)
                }
            }
            func rotate(newItem: [String: Any], oldQuery: [String: Any]) {
                guard SecItemAdd(newItem as CFDictionary, nil) == errSecSuccess else { return }
                SecItemDelete(oldQuery as CFDictionary)
            }
            func replace(_ data: Data, reset: Bool) {
                if reset {
                    SecItemDelete([kSecAttrAccount: "a"] as CFDictionary)
                } else {
                    SecItemAdd([kSecAttrAccount: "a", kSecValueData: data] as CFDictionary, nil)
                }
                SecItemDelete([kSecAttrAccount: "old"] as CFDictionary)
                SecItemAdd([kSecAttrAccount: "new", kSecValueData: data] as CFDictionary, nil)
            }
            """
        #expect(locations(of: "KL201", in: source).isEmpty)
    }

    @Test func searchKeysInAddUpdateAndDeleteAreReported() {
        let source = """
            func misuse(_ data: Data) {
                let read: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword,
                    kSecAttrService as String: "svc",
                    kSecAttrAccount as String: "acct",
                    kSecReturnData as String: true,
                    kSecMatchLimit as String: kSecMatchLimitOne,
                ]
                SecItemUpdate(read as CFDictionary, [kSecValueData: data] as CFDictionary)
                var add = read
                add[kSecValueData as String] = data
                SecItemAdd(add as CFDictionary, nil)
                SecItemDelete(read as CFDictionary)
                SecItemUpdate(
                    [kSecAttrService: "svc"] as CFDictionary, [kSecClass: kSecClassGenericPassword] as CFDictionary)
                SecItemDelete([kSecClass: kSecClassGenericPassword, kSecMatchLimit: kSecMatchLimitAll] as CFDictionary)
                SecItemUpdate(
                    [kSecMatchLimit: kSecMatchLimitAll] as CFDictionary, [kSecValueData: data] as CFDictionary)
            }
            """
        #expect(locations(of: "KL203", in: source) == ["7:9"])
        #expect(locations(of: "KL204", in: source) == ["6:9", "7:9", "15:52"])
        #expect(locations(of: "KL205", in: source) == ["7:9"])
    }

    @Test func copyQueryWithoutPrimaryKeyIsReported() {
        let source = """
            func read() {
                var result: AnyObject?
                SecItemCopyMatching([
                    kSecClass: kSecClassGenericPassword,
                    kSecAttrService: "svc",
                    kSecReturnData: true,
                ] as CFDictionary, &result)
                SecItemCopyMatching([
                    kSecClass: kSecClassGenericPassword,
                    kSecAttrService: "svc",
                    kSecAttrAccount: "acct",
                    kSecReturnData: true,
                ] as CFDictionary, &result)
                SecItemCopyMatching([
                    kSecClass: kSecClassGenericPassword,
                    kSecAttrService: "svc",
                    kSecReturnAttributes: true,
                    kSecMatchLimit: kSecMatchLimitAll,
                ] as CFDictionary, &result)
            }
            """
        #expect(locations(of: "KL206", in: source) == ["3:5"])
    }

    @Test func forcedCastsOfTheCopyResultAreReported() {
        let source = """
            func read(query: [String: Any]) -> Data {
                var result: CFTypeRef?
                let status = SecItemCopyMatching(query as CFDictionary, &result)
                guard status == errSecSuccess else { return Data() }
                let key = result as! SecKey
                let certificate = (result! as! SecCertificate)
                let dictionary = result as? [String: Any]
                let other: Int? = nil
                _ = other!
                let unwrapped = result!
                return result as! Data
            }
            """
        #expect(locations(of: "KL207", in: source) == ["10:21", "11:12"])
    }
}

@Suite struct ExitingBranchTests {
    @Test func deleteInABranchThatReturnsIsNotFollowedByTheAdd() {
        let source = """
            - (BOOL)setString:(NSString *)value forKey:(NSString *)key {
                if (!value) {
                    NSMutableDictionary *query = [self query];
                    SecItemDelete((__bridge CFDictionaryRef)query);
                    return NO;
                }
                NSMutableDictionary *item = [self query];
                OSStatus status = SecItemAdd((__bridge CFDictionaryRef)item, NULL);
                if (status == errSecDuplicateItem) {
                    SecItemDelete((__bridge CFDictionaryRef)[self query]);
                    status = SecItemAdd((__bridge CFDictionaryRef)item, NULL);
                }
                return status == errSecSuccess;
            }
            """
        #expect(locations(of: "KL201", in: source, path: "Box.m") == ["10:9"])
        let swift = """
            func set(_ data: Data?, query: [String: Any]) throws {
                guard let data else {
                    SecItemDelete(query as CFDictionary)
                    return
                }
                if query.isEmpty {
                    SecItemDelete(query as CFDictionary)
                    throw KeychainError.invalid
                }
                SecItemAdd([kSecValueData: data] as CFDictionary, nil)
            }
            """
        #expect(locations(of: "KL201", in: swift).isEmpty)
    }
}
