import Foundation
import KeychainCore
import LocalAuthentication
import Security
import Testing

/// An identity search that may not prompt fails whole when a matching identity's private key needs
/// authentication, as a search of any other class does (`NonInteractiveSearchTests`): no partial results. A key
/// whose class is locked is left out, as a locked item of any other class is.
@Suite struct NonInteractiveIdentitySearchTests {
    private let fail: [String: Any] = [kSecUseAuthenticationUI as String: kSecUseAuthenticationUIFail]

    /// Every identity, as references: the status and the certificates' common names.
    private func readAll(_ extra: [String: Any], references: Bool = true) -> (OSStatus, [String]) {
        var query: [String: Any] = [
            kSecClass as String: kSecClassIdentity, kSecMatchLimit as String: kSecMatchLimitAll,
            kSecReturnRef as String: references, kSecReturnAttributes as String: !references,
        ]
        query.merge(extra) { $1 }
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        let names = (result as? [Any])?.compactMap { found -> String? in
            if let attributes = found as? [String: Any] { return attributes[kSecAttrLabel as String] as? String }
            var certificate: SecCertificate?
            guard let identity = found as? SecIdentity, SecIdentityCopyCertificate(identity, &certificate) == 0 else {
                return nil
            }
            return certificate.flatMap { SecCertificateCopySubjectSummary($0) as String? }
        }
        return (status, (names ?? []).sorted())
    }

    private func accessControl(_ flags: SecAccessControlCreateFlags) throws -> SecAccessControl {
        var error: Unmanaged<CFError>?
        return try #require(
            SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, &error))
    }

    /// A plain identity and one whose private key needs biometry.
    private func addPlainAndGuarded() throws {
        let plain = try IdentityFixture.make(commonName: "Plain")
        let guarded = try IdentityFixture.make(commonName: "Guarded")
        let identity = { (fixture: IdentityFixture) in
            SecIdentity(certificate: fixture.certificate, privateKey: fixture.privateKey)
        }
        #expect(SecItemAdd([kSecValueRef: identity(plain)] as CFDictionary, nil) == errSecSuccess)
        let add: [CFString: Any] = [
            kSecValueRef: identity(guarded), kSecAttrAccessControl: try accessControl(.biometryAny),
        ]
        #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
    }

    @Test func anIdentityWhoseKeyNeedsAPromptFailsTheWholeSearch() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            try addPlainAndGuarded()
            try keychain.authenticators.biometry.script(.match)
            #expect(readAll(fail) == (errSecInteractionNotAllowed, []))
            let quiet = LAContext()
            quiet.interactionNotAllowed = true
            #expect(readAll([kSecUseAuthenticationContext as String: quiet]) == (errSecInteractionNotAllowed, []))
            #expect(try keychain.authenticators.biometry.status().script == [.match])  // no prompt was shown
            // The reason names the identity (its persistent reference's UUID, the certificate's) and why.
            var query = ItemQuery(itemClass: .identity, limit: .all, returns: .reference)
            query.authentication = ReadAuthentication(ui: .fail)
            let error = try #require(throws: KeychainError.self) { try keychain.search(query) }
            #expect(error.status == errSecInteractionNotAllowed)
            var reference: AnyObject?
            let byLabel: [CFString: Any] = [
                kSecClass: kSecClassIdentity, kSecAttrLabel: "Guarded", kSecReturnPersistentRef: true,
            ]
            #expect(SecItemCopyMatching(byLabel as CFDictionary, &reference) == errSecSuccess)
            let uuid = try #require(reference as? Data).dropFirst(4).map { String(format: "%02x", $0) }.joined()
            #expect(
                error.reason
                    == "matching item \(uuid) needs authentication for its access control: the item needs user "
                    + "authentication and interaction is not allowed")
            // Attributes alone need no authentication; UISkip leaves the guarded identity out.
            #expect(readAll(fail, references: false) == (errSecSuccess, ["Guarded", "Plain"]))
            let skip = [kSecUseAuthenticationUI as String: kSecUseAuthenticationUISkip]
            #expect(readAll(skip) == (errSecSuccess, ["Plain"]))
            // A context the user authenticated reads both without a prompt.
            let context = LAContext()
            #expect(await evaluationCode(context, .deviceOwnerAuthenticationWithBiometrics) == nil)
            let authenticated = fail.merging([kSecUseAuthenticationContext as String: context]) { $1 }
            #expect(readAll(authenticated) == (errSecSuccess, ["Guarded", "Plain"]))
        }
    }

    /// When UISkip leaves out every match, the not-found reason says the keys were skipped, not that the
    /// certificates have none.
    @Test func aSkippedKeyIsNamedInTheNotFoundReason() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            try addPlainAndGuarded()
            var query = ItemQuery(
                itemClass: .identity, attributes: [.label: .string("Guarded")], limit: .all, returns: .reference)
            query.authentication = ReadAuthentication(ui: .skip)
            let error = try #require(throws: KeychainError.self) { try keychain.search(query) }
            #expect(error.status == errSecItemNotFound)
            let reason = try #require(error.reason)
            #expect(reason.contains("1 item(s) of class cert match, but their private key needs authentication"))
            #expect(!reason.contains("none has a private key"))
            query.attributes = [.label: .string("Missing")]
            let missing = try #require(throws: KeychainError.self) { try keychain.search(query) }
            #expect(missing.reason?.contains("needs authentication") == false)
        }
    }

    /// A key whose class is locked is lock state, not a prompt: it is left out and the others are found, as for
    /// a locked item of any other class, whether or not the query may prompt.
    @Test func anIdentityWhoseKeyIsLockedIsLeftOut() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            let open = try IdentityFixture.make(commonName: "Open")
            let locked = try IdentityFixture.make(commonName: "Locked")
            let afterFirstUnlock: [CFString: Any] = [kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock]
            let identity = SecIdentity(certificate: open.certificate, privateKey: open.privateKey)
            let add = afterFirstUnlock.merging([kSecValueRef: identity]) { $1 }
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            let certificate = afterFirstUnlock.merging([kSecValueRef: locked.certificate]) { $1 }
            #expect(SecItemAdd(certificate as CFDictionary, nil) == errSecSuccess)
            let key: [CFString: Any] = [
                kSecClass: kSecClassKey, kSecValueRef: locked.privateKey,
                kSecAttrAccessible: kSecAttrAccessibleWhenUnlocked,
            ]
            #expect(SecItemAdd(key as CFDictionary, nil) == errSecSuccess)
            #expect(readAll(fail) == (errSecSuccess, ["Locked", "Open"]))
            try keychain.setGracePeriod(0)
            try keychain.lock()
            #expect(readAll(fail) == (errSecSuccess, ["Open"]))
            #expect(readAll([:]) == (errSecSuccess, ["Open"]))
            var query = ItemQuery(itemClass: .identity, limit: .all, returns: .reference)
            query.authentication = ReadAuthentication(ui: .fail)
            #expect(try keychain.search(query).leftOut == 1)
        }
    }

    /// The writes of identities ask as those of other classes do under UIFail: a delete and an update of
    /// attributes need no authentication; an update that re-seals the guarded key does, and fails.
    @Test func writesOfAnIdentityWhoseKeyNeedsAPromptUnderUIFail() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            try addPlainAndGuarded()
            try keychain.authenticators.biometry.script(.match)
            let query = fail.merging([kSecClass as String: kSecClassIdentity]) { $1 }
            let relabel: [CFString: Any] = [kSecAttrApplicationTag: Data("tag.new".utf8)]
            #expect(SecItemUpdate(query as CFDictionary, relabel as CFDictionary) == errSecSuccess)
            let reseal: [CFString: Any] = [kSecAttrAccessControl: try accessControl(.devicePasscode)]
            #expect(SecItemUpdate(query as CFDictionary, reseal as CFDictionary) == errSecInteractionNotAllowed)
            #expect(try keychain.authenticators.biometry.status().script == [.match])  // no prompt was shown
            #expect(SecItemDelete(query as CFDictionary) == errSecSuccess)
            #expect(readAll([:], references: false) == (errSecItemNotFound, []))
        }
    }
}
