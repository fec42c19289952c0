import Foundation
import Security
import Testing

/// `kSecMatchHostOrSubdomainOfHost` (iOS 18, macOS 15): internet passwords whose server is the given host or a
/// subdomain of it, compared as securityd does (the same string, or one that ends with "." and the host).
@Suite struct HostOrSubdomainMatchTests {
    private func add(server: String, account: String = "user") -> OSStatus {
        let item: [CFString: Any] = [
            kSecClass: kSecClassInternetPassword, kSecAttrServer: server, kSecAttrAccount: account,
            kSecValueData: Data("secret for \(server)".utf8),
        ]
        return SecItemAdd(item as CFDictionary, nil)
    }

    private func servers(matching host: Any, limit: CFString = kSecMatchLimitAll) -> (OSStatus, [String]) {
        let query: [CFString: Any] = [
            kSecClass: kSecClassInternetPassword, kSecMatchHostOrSubdomainOfHost: host, kSecMatchLimit: limit,
            kSecReturnAttributes: true,
        ]
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        let found = (result as? [[String: Any]]) ?? (result as? [String: Any]).map { [$0] } ?? []
        return (status, found.compactMap { $0[kSecAttrServer as String] as? String }.sorted())
    }

    @Test func theHostAndItsSubdomainsMatchAndNothingElse() throws {
        try withFreshKeychain {
            for server in ["example.com", "origin.example.com", "a.b.example.com", "notexample.com", "example.org"] {
                #expect(add(server: server) == errSecSuccess)
            }
            let all = servers(matching: "example.com")
            #expect(all.0 == errSecSuccess)
            #expect(all.1 == ["a.b.example.com", "example.com", "origin.example.com"])
            #expect(servers(matching: "origin.example.com").1 == ["origin.example.com"])
            #expect(servers(matching: "b.example.com").1 == ["a.b.example.com"])
            // As securityd compares: the case counts, and the host must end at a dot.
            #expect(servers(matching: "Example.com").0 == errSecItemNotFound)
            #expect(servers(matching: "ample.com").0 == errSecItemNotFound)
            #expect(servers(matching: "foobar.com").0 == errSecItemNotFound)
            // The limit counts the items that pass.
            let one = servers(matching: "example.com", limit: kSecMatchLimitOne)
            #expect(one.0 == errSecSuccess)
            #expect(one.1.count == 1)
            // With the data, as any other search.
            let query: [CFString: Any] = [
                kSecClass: kSecClassInternetPassword, kSecMatchHostOrSubdomainOfHost: "org",
                kSecReturnData: true,
            ]
            var data: AnyObject?
            #expect(SecItemCopyMatching(query as CFDictionary, &data) == errSecSuccess)
            #expect(data as? Data == Data("secret for example.org".utf8))
        }
    }

    @Test func otherClassesAndOtherValuesAreRefused() throws {
        try withFreshKeychain {
            #expect(add(server: "example.com") == errSecSuccess)
            #expect(servers(matching: 42).0 == errSecParam)
            let generic: [CFString: Any] = [kSecClass: kSecClassGenericPassword, kSecMatchHostOrSubdomainOfHost: "x"]
            #expect(SecItemCopyMatching(generic as CFDictionary, nil) == errSecUnimplemented)
            // A delete or update that carried it would act on every host's item: refused, nothing changes.
            let byHost: [CFString: Any] = [
                kSecClass: kSecClassInternetPassword, kSecMatchHostOrSubdomainOfHost: "other.test",
            ]
            #expect(SecItemDelete(byHost as CFDictionary) == errSecParam)
            let change: [CFString: Any] = [kSecAttrComment: "changed"]
            #expect(SecItemUpdate(byHost as CFDictionary, change as CFDictionary) == errSecParam)
            #expect(servers(matching: "example.com").1 == ["example.com"])
        }
        #expect(kSecMatchHostOrSubdomainOfHost as String == "m_HostOrSubdomainOfHost")
    }
}
