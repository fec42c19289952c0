import Foundation
import Security
import Testing

/// The SecItem calls written the way iOS code writes them compile and behave as on a device.
@Suite struct SecItemCallShapesTests {
    @Test func saveReadUpdateDelete() throws {
        try withFreshKeychain {
            #expect(
                addPassword(service: "com.example.app", account: "user@example.com", secret: "secret") == errSecSuccess)

            let readQuery: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: "com.example.app",
                kSecAttrAccount as String: "user@example.com",
                kSecReturnData as String: true,
                kSecMatchLimit as String: kSecMatchLimitOne,
            ]
            var result: AnyObject?
            #expect(SecItemCopyMatching(readQuery as CFDictionary, &result) == errSecSuccess)
            #expect((result as? Data).map { String(decoding: $0, as: UTF8.self) } == "secret")

            let match: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: "com.example.app",
                kSecAttrAccount as String: "user@example.com",
            ]
            let changes: [String: Any] = [kSecValueData as String: Data("newSecret".utf8)]
            #expect(SecItemUpdate(match as CFDictionary, changes as CFDictionary) == errSecSuccess)
            var item: CFTypeRef?
            #expect(SecItemCopyMatching(readQuery as CFDictionary, &item) == errSecSuccess)
            #expect(item as? Data == Data("newSecret".utf8))

            #expect(SecItemDelete(match as CFDictionary) == errSecSuccess)
            var gone: AnyObject?
            #expect(SecItemCopyMatching(readQuery as CFDictionary, &gone) == errSecItemNotFound)
            #expect(gone == nil)
            #expect(SecItemDelete(match as CFDictionary) == errSecItemNotFound)
        }
    }

    /// Update first; add only when the update finds nothing.
    private func save(service: String, account: String, data: Data) -> OSStatus {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
        ]
        var status = SecItemUpdate(query as CFDictionary, [kSecValueData as String: data] as CFDictionary)
        if status == errSecItemNotFound {
            var addQuery = query
            addQuery[kSecValueData as String] = data
            status = SecItemAdd(addQuery as CFDictionary, nil)
        }
        return status
    }

    private func read(service: String, account: String) -> Data? {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
            kSecReturnData as String: kCFBooleanTrue!,
        ]
        var result: CFTypeRef?
        guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess else { return nil }
        return result as? Data
    }

    @Test func updateThenAddKeepsCreationDate() throws {
        try withFreshKeychain {
            #expect(save(service: "svc", account: "acct", data: Data("one".utf8)) == errSecSuccess)
            let attributesQuery: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "svc",
                kSecAttrAccount as String: "acct", kSecReturnAttributes as String: true,
            ]
            var before: AnyObject?
            #expect(SecItemCopyMatching(attributesQuery as CFDictionary, &before) == errSecSuccess)
            #expect(save(service: "svc", account: "acct", data: Data("two".utf8)) == errSecSuccess)
            #expect(read(service: "svc", account: "acct") == Data("two".utf8))
            var after: AnyObject?
            #expect(SecItemCopyMatching(attributesQuery as CFDictionary, &after) == errSecSuccess)
            let created = (before as? [String: Any])?[kSecAttrCreationDate as String] as? Date
            #expect(created != nil)
            #expect(created == (after as? [String: Any])?[kSecAttrCreationDate as String] as? Date)
        }
    }

    @Test func addThenUpdateOnDuplicate() throws {
        try withFreshKeychain {
            #expect(addPassword(service: "svc", account: "acct", secret: "one") == errSecSuccess)
            #expect(addPassword(service: "svc", account: "acct", secret: "two") == errSecDuplicateItem)
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "svc",
                kSecAttrAccount as String: "acct",
            ]
            let status = SecItemUpdate(
                query as CFDictionary, [kSecValueData as String: Data("two".utf8)] as CFDictionary)
            #expect(status == errSecSuccess)
            #expect(read(service: "svc", account: "acct") == Data("two".utf8))
        }
    }

    /// A copy query on service and label finds nothing while an add on service and account collides.
    @Test func duplicateTrap() throws {
        try withFreshKeychain {
            #expect(addPassword(service: "com.app.auth", account: "user-token", secret: "t") == errSecSuccess)
            let copyQuery: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: "com.app.auth",
                kSecAttrLabel as String: "auth-token",
                kSecReturnData as String: true,
            ]
            var result: AnyObject?
            #expect(SecItemCopyMatching(copyQuery as CFDictionary, &result) == errSecItemNotFound)
            let status = addPassword(
                service: "com.app.auth", account: "user-token", secret: "u",
                extra: [kSecAttrLabel as String: "auth-token"])
            #expect(status == errSecDuplicateItem)
        }
    }

    @Test func errorMessagesMatchApple() {
        #expect(SecCopyErrorMessageString(errSecSuccess, nil) as? String == "No error.")
        #expect(
            SecCopyErrorMessageString(errSecItemNotFound, nil) as? String
                == "The specified item could not be found in the keychain.")
        #expect(
            SecCopyErrorMessageString(errSecDuplicateItem, nil) as? String
                == "The specified item already exists in the keychain.")
        #expect(
            SecCopyErrorMessageString(errSecInteractionNotAllowed, nil) as? String == "User interaction is not allowed."
        )
        #expect(
            SecCopyErrorMessageString(errSecMissingEntitlement, nil) as? String
                == "A required entitlement isn't present.")
        #expect(
            SecCopyErrorMessageString(errSecParam, nil) as? String
                == "One or more parameters passed to a function were not valid.")
        #expect(SecCopyErrorMessageString(12345, nil) as? String == "OSStatus 12345")
    }

    @Test func functionsCanBeStoredAndCalledWithNilResult() throws {
        try withFreshKeychain {
            let add: (CFDictionary, UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus = SecItemAdd
            let copy: (CFDictionary, UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus = SecItemCopyMatching
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "a",
                kSecValueData as String: Data([1]),
            ]
            #expect(add(query as CFDictionary, nil) == errSecSuccess)
            let find: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "a"]
            #expect(copy(find as CFDictionary, nil) == errSecSuccess)
        }
    }

    @Test func randomBytes() {
        var first = [UInt8](repeating: 0, count: 32)
        var second = [UInt8](repeating: 0, count: 32)
        #expect(SecRandomCopyBytes(kSecRandomDefault, first.count, &first) == errSecSuccess)
        #expect(SecRandomCopyBytes(kSecRandomDefault, second.count, &second) == errSecSuccess)
        #expect(first != second)
    }
}
