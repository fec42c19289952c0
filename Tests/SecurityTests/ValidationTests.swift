import Foundation
import LocalAuthentication
import Security
import Testing

/// Invalid requests get Apple's precise status and never crash or change anything.
@Suite struct ValidationTests {
    private let genp: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "svc", kSecAttrAccount as String: "a",
    ]

    private func add(_ extra: [String: Any]) -> OSStatus {
        SecItemAdd(genp.merging(extra) { $1 } as CFDictionary, nil)
    }

    @Test func addRefusesSearchPropertiesAndWrongTypes() throws {
        try withFreshKeychain {
            #expect(add([kSecMatchLimit as String: kSecMatchLimitOne]) == errSecParam)
            #expect(add([kSecValueData as String: "not data"]) == errSecParam)
            #expect(add([kSecAttrPort as String: 1]) == errSecNoSuchAttr)
            #expect(add([kSecAttrCreator as String: Date()]) == errSecParam)
            #expect(add([kSecAttrCreator as String: Data([1])]) == errSecParam)
            #expect(add([kSecAttrAccessible as String: "nonsense"]) == errSecParam)
            #expect(add([kSecValueData as String: Data(count: 17 << 20)]) == errSecParam)
            var result: AnyObject?
            #expect(SecItemCopyMatching(genp as CFDictionary, &result) == errSecItemNotFound)
        }
    }

    @Test func classesAreChecked() throws {
        try withFreshKeychain {
            var result: AnyObject?
            #expect(SecItemCopyMatching([kSecClass as String: "nope"] as CFDictionary, &result) == errSecNoSuchClass)
            #expect(SecItemCopyMatching([kSecAttrAccount as String: "a"] as CFDictionary, &result) == errSecParam)
            #expect(
                SecItemCopyMatching([kSecClass as String: kSecClassKey] as CFDictionary, &result) == errSecItemNotFound)
            // An identity is added by its SecIdentity (kSecValueRef); without one there is nothing to add.
            #expect(SecItemAdd([kSecClass as String: kSecClassIdentity] as CFDictionary, nil) == errSecParam)
        }
    }

    @Test func updateAndDeleteRules() throws {
        try withFreshKeychain {
            #expect(add([kSecValueData as String: Data("s".utf8)]) == errSecSuccess)
            let change = [kSecAttrLabel as String: "l"] as CFDictionary
            #expect(
                SecItemUpdate(genp.merging([kSecReturnData as String: true]) { $1 } as CFDictionary, change)
                    == errSecParam)
            #expect(
                SecItemUpdate(
                    genp.merging([kSecMatchLimit as String: kSecMatchLimitOne]) { $1 } as CFDictionary, change)
                    == errSecParam)
            #expect(
                SecItemUpdate(
                    genp.merging([kSecMatchLimit as String: kSecMatchLimitAll]) { $1 } as CFDictionary, change)
                    == errSecSuccess)
            #expect(SecItemUpdate(genp as CFDictionary, genp as CFDictionary) == errSecNoSuchAttr)
            #expect(
                SecItemDelete(genp.merging([kSecMatchLimit as String: kSecMatchLimitOne]) { $1 } as CFDictionary)
                    == errSecParam)
            // Any other search key in a delete or an update's query is refused, as iOS's server refuses them all
            // (errSecItemMatchUnsupported): a case-insensitive delete would remove what iOS keeps.
            let folded = genp.merging([kSecAttrAccount as String: "A", kSecMatchCaseInsensitive as String: true]) { $1 }
            #expect(SecItemDelete(folded as CFDictionary) == errSecParam)
            #expect(SecItemUpdate(folded as CFDictionary, change) == errSecParam)
            var kept: AnyObject?
            #expect(SecItemCopyMatching(genp as CFDictionary, &kept) == errSecSuccess)
            // A delete ignores the return and value properties of a reused query, as on a device.
            let reused = genp.merging([kSecReturnData as String: true, kSecValueData as String: Data("s".utf8)]) { $1 }
            #expect(SecItemDelete(reused as CFDictionary) == errSecSuccess)
        }
    }

    /// Apple's client takes the kSecUse… keys from the query only (`SecItemAuthCopyParams`, `SecItem.m`) and sends
    /// attributesToUpdate as it is; securityd's update parser (`query_update_parse`, `SecDbQuery.c`) reads each of
    /// its keys but kSecValueData as an attribute, and knows none of these: errSecNoSuchAttr, nothing changed.
    /// kSecUseDataProtectionKeychain is the one it skips (`SecDbAttrWithKey`).
    @Test func useKeysInAttributesToUpdateAreNoSuchAttrAsOnIOS() throws {
        try withFreshKeychain {
            #expect(add([kSecValueData as String: Data("s".utf8)]) == errSecSuccess)
            let uses: [(String, Any)] = [
                (kSecUseOperationPrompt as String, "Update the password"),
                (kSecUseAuthenticationUI as String, kSecUseAuthenticationUIFail),
                (kSecUseAuthenticationContext as String, LAContext()),
            ]
            for (key, value) in uses {
                let change: [String: Any] = [kSecAttrLabel as String: "changed", key: value]
                #expect(SecItemUpdate(genp as CFDictionary, change as CFDictionary) == errSecNoSuchAttr, "\(key)")
            }
            var found: AnyObject?
            let label = genp.merging([kSecReturnAttributes as String: true]) { $1 }
            #expect(SecItemCopyMatching(label as CFDictionary, &found) == errSecSuccess)
            #expect((found as? [String: Any])?[kSecAttrLabel as String] == nil)
            let kept: [String: Any] = [
                kSecAttrLabel as String: "changed", kSecUseDataProtectionKeychain as String: true,
            ]
            #expect(SecItemUpdate(genp as CFDictionary, kept as CFDictionary) == errSecSuccess)
        }
    }

    /// iOS's password tables have an `alis` column (`v12_genp_class`, `v12_10_inet_class` in `SecItemSchema.c`): a
    /// blob that an add stores, a query matches and an update changes, as any other text attribute.
    @Test func aliasIsAnAttributeOfBothPasswordClassesAsOnIOS() throws {
        try withFreshKeychain {
            #expect(add([kSecAttrAlias as String: "work", kSecValueData as String: Data("s".utf8)]) == errSecSuccess)
            var found: AnyObject?
            let byAlias = genp.merging([kSecAttrAlias as String: "work", kSecReturnAttributes as String: true]) { $1 }
            #expect(SecItemCopyMatching(byAlias as CFDictionary, &found) == errSecSuccess)
            #expect((found as? [String: Any])?[kSecAttrAlias as String] as? String == "work")
            let change = [kSecAttrAlias as String: "home"]
            #expect(SecItemUpdate(genp as CFDictionary, change as CFDictionary) == errSecSuccess)
            #expect(SecItemCopyMatching(byAlias as CFDictionary, nil) == errSecItemNotFound)
            let renamed = genp.merging([kSecAttrAlias as String: "home"]) { $1 }
            #expect(SecItemCopyMatching(renamed as CFDictionary, nil) == errSecSuccess)
            let server: [String: Any] = [
                kSecClass as String: kSecClassInternetPassword, kSecAttrServer as String: "example.com",
                kSecAttrAlias as String: "site",
            ]
            #expect(
                SecItemAdd(server.merging([kSecValueData as String: Data("s".utf8)]) { $1 } as CFDictionary, nil)
                    == errSecSuccess)
            #expect(SecItemCopyMatching(server as CFDictionary, nil) == errSecSuccess)
        }
    }

    @Test func dataProtectionKeychainFlagIsAccepted() throws {
        try withFreshKeychain {
            #expect(
                add([kSecUseDataProtectionKeychain as String: true, kSecValueData as String: Data([1])])
                    == errSecSuccess)
        }
    }

    @Test func accessGroupsAreEnforced() throws {
        try withFreshKeychain {
            #expect(add([kSecAttrAccessGroup as String: "OTHER.group"]) == errSecMissingEntitlement)
            #expect(add([kSecAttrAccessGroup as String: "TEAM1.com.example.app"]) == errSecSuccess)
        }
        try withFreshKeychain(groups: []) {
            #expect(add([:]) == errSecMissingEntitlement)
        }
    }

    @Test func accessControlValidationComesFirst() throws {
        try withFreshKeychain {
            var error: Unmanaged<CFError>?
            let biometric = try #require(
                SecAccessControlCreateWithFlags(
                    nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, .biometryCurrentSet, &error))
            // No keychain passcode: as on a device without one, constraints cannot be added.
            #expect(add([kSecAttrAccessControl as String: biometric]) == errSecAuthFailed)
            let synced = try #require(
                SecAccessControlCreateWithFlags(
                    kCFAllocatorDefault, kSecAttrAccessibleWhenUnlocked, .userPresence, &error))
            #expect(
                add([kSecAttrAccessControl as String: synced, kSecAttrSynchronizable as String: true]) == errSecParam)
            #expect(
                add([
                    kSecAttrAccessControl as String: synced,
                    kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock,
                ]) == errSecParam)
            // iOS stores this one (issue 11).
            #expect(
                add([
                    kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                    kSecAttrSynchronizable as String: true,
                ]) == errSecSuccess)
            let plain = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleAfterFirstUnlock, [], nil))
            #expect(add([kSecAttrAccessControl as String: plain]) == errSecSuccess)
            #expect(plain == SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleAfterFirstUnlock, [], nil))

            #expect(SecAccessControlCreateWithFlags(nil, "bogus" as CFString, .userPresence, &error) == nil)
            let failure = try #require(error?.takeRetainedValue())
            #expect(CFErrorGetCode(failure) == Int(errSecParam))
            #expect((failure as Error as NSError).code == Int(errSecParam))
        }
    }

    @Test func malformedDictionariesNeverCrash() throws {
        try withFreshKeychain {
            var many = genp
            for index in 0..<5000 { many["key\(index)"] = index }
            // securityd's query parser reads at most 128 keys (QUERY_KEY_LIMIT): errSecItemIllegalQuery, -50.
            #expect(SecItemAdd(many as CFDictionary, nil) == errSecParam)
            // A key it does not know: errSecNoSuchAttr when it has four characters, as an attribute's name has,
            // else errSecItemInvalidKey (-50): a constant's name given as text, a misspelt key.
            #expect(add(["zzzz": "x"]) == errSecNoSuchAttr)
            #expect(add(["kSecAttrService": "x"]) == errSecParam)
            #expect(add(["account": "x"]) == errSecParam)
            #expect(add([kSecReturnData as String: "yes"]) == errSecParam)
            var result: AnyObject?
            #expect(
                SecItemCopyMatching(genp.merging([kSecMatchLimit as String: "lots"]) { $1 } as CFDictionary, &result)
                    == errSecParam)
            // A negative limit is no error on iOS (a search for the first match): nothing was added.
            #expect(
                SecItemCopyMatching(genp.merging([kSecMatchLimit as String: -3]) { $1 } as CFDictionary, &result)
                    == errSecItemNotFound)
            #expect(
                SecItemCopyMatching(
                    genp.merging([kSecValuePersistentRef as String: Data([1, 2])]) { $1 } as CFDictionary,
                    &result) == errSecParam)
            let numericKeys = NSDictionary(dictionary: [NSNumber(value: 1): "x"])
            #expect(SecItemCopyMatching(numericKeys, &result) == errSecParam)
            #expect(
                SecItemCopyMatching(genp.merging([kSecMatchPolicy as String: "p"]) { $1 } as CFDictionary, &result)
                    == errSecParam)
        }
    }

    /// iOS's server skips kSecAttrSynchronizableAny wherever it is written (`SecDbQuery.c`): an add stores the
    /// item as not synchronizable, and attributes to update leave each item as it was. SAMKeychain and its ports
    /// add with the dictionary they query with, which holds it by default.
    @Test func synchronizableAnyInAnAddOrAnUpdateIsIgnoredAsOnIOS() throws {
        try withFreshKeychain {
            let any: [String: Any] = [kSecAttrSynchronizable as String: kSecAttrSynchronizableAny]
            #expect(add(any.merging([kSecValueData as String: Data("s".utf8)]) { $1 }) == errSecSuccess)
            var result: AnyObject?
            let read = genp.merging([kSecReturnAttributes as String: true]) { $1 }
            #expect(SecItemCopyMatching(read as CFDictionary, &result) == errSecSuccess)
            #expect((result as? [String: Any])?[kSecAttrSynchronizable as String] as? Bool == false)
            // The same add again is a duplicate of that item.
            #expect(add(any) == errSecDuplicateItem)
            let synced = genp.merging([kSecAttrSynchronizable as String: true, kSecAttrAccount as String: "b"]) { $1 }
            #expect(SecItemAdd(synced as CFDictionary, nil) == errSecSuccess)
            var everything = genp.merging(any) { $1 }
            everything[kSecAttrAccount as String] = nil
            #expect(
                SecItemUpdate(
                    everything as CFDictionary,
                    [kSecAttrSynchronizable as String: kSecAttrSynchronizableAny, kSecAttrLabel as String: "l"]
                        as CFDictionary)
                    == errSecSuccess)
            let all = everything.merging([
                kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnAttributes as String: true,
            ]) { $1 }
            #expect(SecItemCopyMatching(all as CFDictionary, &result) == errSecSuccess)
            let items = (result as? [[String: Any]]) ?? []
            #expect(items.count == 2 && items.allSatisfy { $0[kSecAttrLabel as String] as? String == "l" })
            #expect(
                Set(items.compactMap { $0[kSecAttrSynchronizable as String] as? Bool }) == [true, false])
        }
    }

    @Test func synchronizableAnyMatchesBoth() throws {
        try withFreshKeychain {
            #expect(add([kSecAttrSynchronizable as String: true]) == errSecSuccess)
            #expect(add([kSecAttrSynchronizable as String: false]) == errSecSuccess)
            var result: AnyObject?
            let all = genp.merging([kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnAttributes as String: true])
            { $1 }
            #expect(SecItemCopyMatching(all as CFDictionary, &result) == errSecSuccess)
            #expect((result as? [Any])?.count == 1)
            let any = all.merging([kSecAttrSynchronizable as String: kSecAttrSynchronizableAny]) { $1 }
            #expect(SecItemCopyMatching(any as CFDictionary, &result) == errSecSuccess)
            #expect((result as? [Any])?.count == 2)
        }
    }
}
