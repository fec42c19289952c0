import Foundation
import KeychainCore
import LocalAuthentication
import Security
import Testing

/// iOS 16's `LARightStore`: rights kept with a secret and a P-256 key that open only while the right is
/// authorized, as keychain items under the requirement's access control.
@Suite struct LARightStoreTests {
    private let store = LARightStore.shared

    @Test func aSecretOpensOnlyForTheAuthorizedRight() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            let token = Data("access-token-value".utf8)
            let saved = try await store.saveRight(LARight(), identifier: "access-token", secret: token)
            #expect(saved.state == .unknown)
            #expect(await laErrorCode { _ = try await saved.secret.rawData } == .notInteractive)

            let right = try await store.right(forIdentifier: "access-token")
            #expect(right.state == .unknown)
            #expect(await laErrorCode { _ = try await right.secret.rawData } == .notInteractive)
            try keychain.authenticators.biometry.script(.match)
            try await right.authorize(localizedReason: "test")
            #expect(try await right.secret.rawData == token)
            // Another instance of the same right is authorized on its own.
            #expect(await laErrorCode { _ = try await saved.secret.rawData } == .notInteractive)

            await right.deauthorize()
            #expect(await laErrorCode { _ = try await right.secret.rawData } == .notInteractive)
        }
    }

    /// The secret is a keychain item under the requirement's access control: read around the right, it still
    /// asks for the user.
    @Test func theSecretIsProtectedByTheKeychainItself() async throws {
        try await withAuthenticatingKeychain { _, _ in
            _ = try await store.saveRight(LARight(), identifier: "guarded", secret: Data("s".utf8))
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "guarded",
                kSecReturnData as String: true, kSecUseAuthenticationUI as String: kSecUseAuthenticationUIFail,
            ]
            var result: AnyObject?
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecInteractionNotAllowed)
            let key: [String: Any] = [
                kSecClass as String: kSecClassKey, kSecAttrKeyClass as String: kSecAttrKeyClassPrivate,
                kSecAttrLabel as String: "guarded", kSecReturnRef as String: true,
                kSecUseAuthenticationUI as String: kSecUseAuthenticationUIFail,
            ]
            #expect(SecItemCopyMatching(key as CFDictionary, &result) == errSecInteractionNotAllowed)
        }
    }

    @Test func identifiersAreUniqueAndRemovable() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            _ = try await store.saveRight(LARight(), identifier: "one")
            await #expect(throws: NSError.self) { _ = try await store.saveRight(LARight(), identifier: "one") }
            do {
                _ = try await store.saveRight(LARight(), identifier: "one", secret: Data("x".utf8))
                Issue.record("a taken identifier was saved again")
            } catch let error as NSError {
                #expect(error.domain == "NSOSStatusErrorDomain")
                #expect(error.code == Int(errSecDuplicateItem))
            }
            _ = try await store.saveRight(LARight(requirement: .biometry), identifier: "two")
            try await store.removeRight(forIdentifier: "one")
            await #expect(throws: NSError.self) { _ = try await store.right(forIdentifier: "one") }
            do {
                try await store.removeRight(forIdentifier: "one")
                Issue.record("a removed right was removed again")
            } catch let error as NSError {
                #expect(error.code == Int(errSecItemNotFound))
            }
            // Removing a right removes its keys too: the identifier can be saved again.
            let again = try await store.saveRight(LARight(), identifier: "one")
            try keychain.authenticators.biometry.script(.match)
            try await again.authorize(localizedReason: "test")
            try await store.removeRight(again)
            #expect(again.state == .notAuthorized)
            try await store.removeAllRights()
            await #expect(throws: NSError.self) { _ = try await store.right(forIdentifier: "two") }
            var result: AnyObject?
            let keys: [String: Any] = [kSecClass as String: kSecClassKey, kSecMatchLimit as String: kSecMatchLimitAll]
            #expect(SecItemCopyMatching(keys as CFDictionary, &result) == errSecItemNotFound)
        }
    }

    /// Two saves of one identifier at once: one wins, and the loser's cleanup leaves the winner's key pair alone.
    @Test func concurrentSavesOfOneIdentifierLeaveOneWholeRight() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            let store = store
            for round in 0..<4 {
                let identifier = "race-\(round)"
                let outcomes = await withTaskGroup(of: Bool.self) { group in
                    for _ in 0..<4 {
                        group.addTask {
                            (try? await store.saveRight(LARight(), identifier: identifier, secret: Data("s".utf8)))
                                != nil
                        }
                    }
                    return await group.reduce(into: [Bool]()) { $0.append($1) }
                }
                #expect(outcomes.filter { $0 }.count == 1)
                let right = try await store.right(forIdentifier: identifier)
                try keychain.authenticators.biometry.script(.match)
                try await right.authorize(localizedReason: "test")
                let message = Data("m".utf8)
                let signature = try await right.key.sign(message, algorithm: .ecdsaSignatureMessageX962SHA256)
                try await right.key.publicKey.verify(
                    message, signature: signature, algorithm: .ecdsaSignatureMessageX962SHA256)
            }
        }
    }

    /// A right removed and saved again under its identifier is a new right: an instance of the old one, even
    /// authorized, neither reads nor removes the new one's items.
    @Test func anOldRightDoesNotReachTheNewRightOfItsIdentifier() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            _ = try await store.saveRight(LARight(), identifier: "token", secret: Data("first".utf8))
            let old = try await store.right(forIdentifier: "token")
            try keychain.authenticators.biometry.script(.match)
            try await old.authorize(localizedReason: "test")
            #expect(try await old.secret.rawData == Data("first".utf8))

            try await store.removeRight(forIdentifier: "token")
            _ = try await store.saveRight(LARight(), identifier: "token", secret: Data("second".utf8))
            do {
                _ = try await old.secret.rawData
                Issue.record("the old right read the new right's secret")
            } catch let error as NSError {
                #expect(error.code == Int(errSecItemNotFound))
            }
            do {
                try await store.removeRight(old)
                Issue.record("the old right removed the new right")
            } catch let error as NSError {
                #expect(error.code == Int(errSecItemNotFound))
            }
            let new = try await store.right(forIdentifier: "token")
            try keychain.authenticators.biometry.script(.match)
            try await new.authorize(localizedReason: "test")
            #expect(try await new.secret.rawData == Data("second".utf8))
        }
    }

    @Test func aRightWithoutASecretSaysSo() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            let right = try await store.saveRight(LARight(), identifier: "no-secret")
            try keychain.authenticators.biometry.script(.match)
            try await right.authorize(localizedReason: "test")
            do {
                _ = try await right.secret.rawData
                Issue.record("a right saved without a secret gave one")
            } catch let error as NSError {
                #expect(error.code == Int(errSecItemNotFound))
            }
        }
    }

    @Test func theKeySignsDecryptsAndAgreesOnlyWhenAuthorized() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            let right = try await store.saveRight(LARight(), identifier: "signing")
            let publicBytes = try await right.key.publicKey.bytes
            #expect(publicBytes.count == 65 && publicBytes.first == 0x04)
            let message = Data("challenge".utf8)
            let algorithm = SecKeyAlgorithm.ecdsaSignatureMessageX962SHA256
            #expect(right.key.canSign(using: algorithm))
            #expect(!right.key.canSign(using: .rsaSignatureMessagePKCS1v15SHA256))
            #expect(right.key.publicKey.canVerify(using: algorithm))
            #expect(
                await laErrorCode { _ = try await right.key.sign(message, algorithm: algorithm) } == .notInteractive)

            // Encrypting needs no authorization; decrypting does.
            let ecies = SecKeyAlgorithm.eciesEncryptionStandardVariableIVX963SHA256AESGCM
            #expect(right.key.publicKey.canEncrypt(using: ecies) && right.key.canDecrypt(using: ecies))
            let sealed = try await right.key.publicKey.encrypt(message, algorithm: ecies)
            #expect(await laErrorCode { _ = try await right.key.decrypt(sealed, algorithm: ecies) } == .notInteractive)

            try keychain.authenticators.biometry.script(.match)
            try await right.authorize(localizedReason: "test")
            let signature = try await right.key.sign(message, algorithm: algorithm)
            try await right.key.publicKey.verify(message, signature: signature, algorithm: algorithm)
            await #expect(throws: NSError.self) {
                try await right.key.publicKey.verify(Data("other".utf8), signature: signature, algorithm: algorithm)
            }
            #expect(try await right.key.decrypt(sealed, algorithm: ecies) == message)

            // Key agreement gives what the other party computes with the right's public key.
            let peer = try #require(
                SecKeyCreateRandomKey(
                    [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256]
                        as CFDictionary, nil))
            let peerPublic = try #require(SecKeyCopyPublicKey(peer))
            let peerBytes = try #require(SecKeyCopyExternalRepresentation(peerPublic, nil) as Data?)
            let exchange = SecKeyAlgorithm.ecdhKeyExchangeStandard
            #expect(right.key.canExchangeKeys(using: exchange))
            let ours = try await right.key.exchangeKeys(publicKey: peerBytes, algorithm: exchange, parameters: [:])
            let rightPublic = try #require(
                SecKeyCreateWithData(
                    publicBytes as CFData,
                    [
                        kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                        kSecAttrKeyClass as String: kSecAttrKeyClassPublic,
                    ] as CFDictionary, nil))
            let theirs = try #require(
                SecKeyCopyKeyExchangeResult(peer, exchange, rightPublic, [:] as CFDictionary, nil) as Data?)
            #expect(ours == theirs)
        }
    }

    @Test func aCurrentSetRightClosesForGoodWhenTheEnrollmentChanges() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            let secret = Data("bound".utf8)
            _ = try await store.saveRight(
                LARight(requirement: .biometryCurrentSet), identifier: "bound", secret: secret)
            try keychain.authenticators.biometry.script(.match)
            let right = try await store.right(forIdentifier: "bound")
            try await right.authorize(localizedReason: "test")
            #expect(try await right.secret.rawData == secret)

            try keychain.authenticators.biometry.changeEnrollment()
            let later = try await store.right(forIdentifier: "bound")
            #expect(await laErrorCode { try await later.checkCanAuthorize() } == .authenticationFailed)
            try keychain.authenticators.biometry.script(.match)
            #expect(await laErrorCode { try await later.authorize(localizedReason: "test") } == .authenticationFailed)
            #expect(later.state == .notAuthorized)
            #expect(await laErrorCode { _ = try await later.secret.rawData } == .notInteractive)
        }
    }

    @Test func savingNeedsAPasscodeAndACurrentSetNeedsAnEnrollment() async throws {
        try await withAuthenticatingKeychain(passcode: nil, enrolled: false) { keychain, _ in
            #expect(await laErrorCode { _ = try await store.saveRight(LARight(), identifier: "a") } == .passcodeNotSet)
            try keychain.setPasscode(Secret(Array("1234".utf8)))
            let currentSet = LARight(requirement: .biometryCurrentSet)
            #expect(
                await laErrorCode { _ = try await store.saveRight(currentSet, identifier: "a") } == .biometryNotEnrolled
            )
            await #expect(throws: NSError.self) { _ = try await store.right(forIdentifier: "a") }
            _ = try await store.saveRight(LARight(requirement: .biometry), identifier: "a")
        }
    }

    @Test func completionHandlersReachTheCallersKeychain() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            let secret = Data("callback".utf8)
            let saved: LAPersistedRight? = await withCheckedContinuation { continuation in
                store.saveRight(LARight(), identifier: "cb", secret: secret) { right, _ in
                    continuation.resume(returning: right)
                }
            }
            let right = try #require(saved)
            try keychain.authenticators.biometry.script(.match)
            try await right.authorize(localizedReason: "test")
            let loaded: Data? = await withCheckedContinuation { continuation in
                right.secret.loadData { data, _ in continuation.resume(returning: data) }
            }
            #expect(loaded == secret)
            let removed: (any Error)? = await withCheckedContinuation { continuation in
                store.removeRight(forIdentifier: "cb") { continuation.resume(returning: $0) }
            }
            #expect(removed == nil)
        }
    }
}
