import Foundation
import KeychainCore
import Testing

@testable import Security

/// The reasons the SecItem functions log under KEYCHAIN_DEBUG: the offending key with the property groups the
/// function takes, and the engine's explanations, with no secret in them.
@Suite struct SecItemExplanationTests {
    /// The error `body` throws.
    private func failure(_ body: () throws -> Void) -> KeychainError? {
        do {
            try body()
            return nil
        } catch {
            return error as? KeychainError
        }
    }

    @Test func addWithASearchKeyNamesItAndTheGroupsAddTakes() {
        let error = failure {
            _ = try SecItemRequest.add(
                [
                    kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "svc",
                    kSecMatchLimit as String: kSecMatchLimitOne,
                ] as NSDictionary)
        }
        #expect(error?.status == errSecParam)
        #expect(
            error?.reason == "SecItemAdd does not take search (kSecMatch…) properties (m_Limit); SecItemAdd takes "
                + "item class (kSecClass), attribute (kSecAttr…), return type (kSecReturn…), value (kSecValue…), "
                + "kSecUse… properties")
    }

    @Test func updateAttributesWithAReturnKeyIsNoSuchAttr() {
        let query = [kSecClass as String: kSecClassGenericPassword] as NSDictionary
        let error = failure {
            _ = try SecItemRequest.update(query, [kSecReturnData as String: true] as NSDictionary)
        }
        #expect(error?.status == errSecNoSuchAttr)
        #expect(
            error?.reason == "SecItemUpdate's attributesToUpdate does not take return type (kSecReturn…) properties "
                + "(r_Data); SecItemUpdate's attributesToUpdate takes attribute (kSecAttr…), value (kSecValue…) "
                + "properties")
        let classChange = failure {
            _ = try SecItemRequest.update(query, [kSecClass as String: kSecClassInternetPassword] as NSDictionary)
        }
        #expect(classChange?.status == errSecNoSuchAttr)
        #expect(classChange?.reason?.contains("(class); an update cannot change an item's class") == true)
    }

    /// kSecValueData in a query is accepted and ignored, as on iOS; the debug log says so (issue 11).
    @Test func copyWithValueDataIsIgnoredAndSaysSo() throws {
        var notes: [KeychainError.Reason] = []
        _ = try SecItemRequest.copyMatching(
            [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: Data("pw".utf8)] as NSDictionary,
            notes: &notes)
        #expect(
            notes.map(\.english) == ["kSecValueData in the query is ignored: a query never matches on an item's data"])
        let error = failure {
            _ = try SecItemRequest.copyMatching(
                [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: "pw"] as NSDictionary)
        }
        #expect(error?.status == errSecParam)
        #expect(error?.reason?.hasPrefix("kSecValueData must be data (CFData), not ") == true)
    }

    @Test func anAttributeOfTheOtherClassIsNamedWithTheClassAttributes() throws {
        try withFreshKeychain {
            let keychain = try SecurityRuntime.current()
            let error = failure {
                _ = try keychain.copyMatching(
                    SecItemRequest.copyMatching(
                        [
                            kSecClass as String: kSecClassGenericPassword, kSecAttrServer as String: "example.com",
                        ] as NSDictionary))
            }
            #expect(error?.status == errSecNoSuchAttr)
            #expect(error?.reason?.hasPrefix("srvr is not an attribute of class genp; its attributes are acct") == true)
        }
    }

    @Test func loggedTrapsNameTheCauseAndNoSecret() throws {
        try withFreshKeychain {
            let keychain = try SecurityRuntime.current()
            #expect(
                addPassword(
                    service: "api", account: "me", secret: "topsecret-1",
                    extra: [kSecAttrSynchronizable as String: true]) == errSecSuccess)
            let query =
                [
                    kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "api",
                    kSecAttrAccount as String: "me", kSecReturnData as String: true,
                ] as NSDictionary
            #expect(SecItemCopyMatching(query, nil) == errSecItemNotFound)
            let notFound = failure { _ = try keychain.copyMatching(SecItemRequest.copyMatching(query)) }
            // What SecurityRuntime.perform logs is the error's description.
            let logged = notFound.map { "\($0)" } ?? ""
            #expect(logged.hasPrefix("The specified item could not be found in the keychain. (OSStatus -25300): "))
            #expect(logged.contains("synchronizable filter"))
            #expect(!logged.contains("topsecret"))

            #expect(addPassword(service: "web", account: "", secret: "topsecret-2") == errSecSuccess)
            let add =
                [
                    kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "web",
                    kSecAttrLabel as String: "other", kSecValueData as String: Data("topsecret-3".utf8),
                ] as NSDictionary
            #expect(SecItemAdd(add, nil) == errSecDuplicateItem)
            let duplicate = failure { try keychain.add(SecItemRequest.add(add)) }
            let text = duplicate.map { "\($0)" } ?? ""
            #expect(text.contains("the add left out acct (defaulted to empty data, which matches an empty string)"))
            #expect(!text.contains("topsecret"))
        }
    }
}
