import Foundation
import KeychainTestSupport
import Testing

@testable import KeychainCore

/// Encrypted backup and restore: migratable items come back whole in another home; ThisDeviceOnly items never
/// leave; wrong passwords, damaged files and collisions write nothing.
@Suite(.serialized) struct BackupTests {
    private let password = Secret(Array("correct horse battery staple".utf8))
    private let passcode = Secret(Array("1234".utf8))
    private static let groups = ["TEAM1.com.example.app", "TEAM1.com.example.other"]

    private func keychain(
        home: URL = temporaryHome(), clock: @escaping @Sendable () -> Date = { Date() },
        groups: [String] = BackupTests.groups
    ) throws -> Keychain {
        var configuration = KeychainConfiguration(
            home: home, identity: CallerIdentity(applicationIdentifier: groups[0], accessGroups: groups), clock: clock)
        configuration.passcodeDerivationTarget = 0.002
        return try Keychain(configuration: configuration)
    }

    private func backupURL() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("keychain-backup-\(UUID().uuidString)")
    }

    private func total(_ keychain: Keychain) throws -> Int {
        var count = 0
        for itemClass in [ItemClass.genericPassword, .internetPassword] {
            count += try keychain.count(ItemQuery(itemClass: itemClass, synchronizable: .any))
        }
        return count
    }

    /// A source keychain with one item of each migratable and each ThisDeviceOnly class, in two groups.
    private func populatedSource(clock: TestClock) throws -> (Keychain, [Accessibility: PersistentReference]) {
        let source = try keychain(clock: clock.function)
        var references: [Accessibility: PersistentReference] = [:]
        let classes: [Accessibility] = [
            .whenUnlocked, .afterFirstUnlock, .always, .whenUnlockedThisDeviceOnly,
            .afterFirstUnlockThisDeviceOnly, .alwaysThisDeviceOnly,
        ]
        for protection in classes {
            let item = genericPassword(
                service: "svc", account: "acct-\(protection.rawValue)", secret: "secret-\(protection.rawValue)",
                extra: [.label: .string("label \(protection.rawValue)"), .generic: .data([1, 2, 3])],
                accessibility: protection, returns: .persistentReference)
            references[protection] = try source.add(item)?.persistentReference
            clock.advance(by: 60)
        }
        try source.add(
            NewItem(
                itemClass: .internetPassword,
                attributes: [
                    .server: .string("example.com"), .account: .data([0xFF, 0x00, 0x41]), .port: .number(443),
                    .isInvisible: .bool(true),
                ],
                accessGroup: Self.groups[1], synchronizable: true, accessibility: .afterFirstUnlock,
                data: bytes("inet-secret")))
        clock.advance(by: 3600)
        try source.update(
            genericQuery([.account: .string("acct-ck")], limit: .all),
            with: ItemChanges(data: bytes("secret-ck2")))
        return (source, references)
    }

    @Test func roundTripIntoAnotherHomeKeepsEverythingThatMayLeave() throws {
        let clock = TestClock()
        let (source, references) = try populatedSource(clock: clock)
        let url = backupURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let written = try source.backup(to: url, password: password)
        #expect(written == BackupSummary(itemCount: 4, excludedCount: 3))
        let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        // Another home has another device key; a caller with one group restores both groups' items.
        let targetHome = temporaryHome()
        let target = try keychain(
            home: targetHome, clock: { Date(timeIntervalSinceReferenceDate: 1) },
            groups: [Self.groups[0]])
        #expect(try target.restore(from: url, password: password) == written)
        let everyGroup = try keychain(home: targetHome)
        #expect(try total(everyGroup) == 4)

        for protection in [Accessibility.whenUnlocked, .afterFirstUnlock, .always] {
            let query = genericQuery([.account: .string("acct-\(protection.rawValue)")])
            let before = try source.attributes(query)
            let after = try everyGroup.attributes(query)
            #expect(after == before)
            #expect(after[.creationDate] != nil && after[.label] == .string("label \(protection.rawValue)"))
            #expect(after[.generic] == .data([1, 2, 3]))
            let reference = try #require(references[protection])
            let found = try everyGroup.copyMatching(ItemQuery(returns: .data, persistentReference: reference))
            #expect(
                found.first?.data.map { String(decoding: $0.bytes, as: UTF8.self) }
                    == (protection == .afterFirstUnlock ? "secret-ck2" : "secret-\(protection.rawValue)"))
        }
        let updated = try everyGroup.attributes(genericQuery([.account: .string("acct-ck")]))
        #expect(updated[.modificationDate] != updated[.creationDate])

        let inetQuery = ItemQuery(
            itemClass: .internetPassword, attributes: [.account: .data([0xFF, 0x00, 0x41])],
            accessGroup: Self.groups[1], synchronizable: .yes, returns: [.attributes, .data])
        let inet = try #require(try everyGroup.copyMatching(inetQuery).first)
        #expect(inet.attributes?[.account] == .data([0xFF, 0x00, 0x41]))
        #expect(inet.attributes?[.port] == .number(443) && inet.attributes?[.isInvisible] == .bool(true))
        #expect(inet.attributes?[.accessGroup] == .string(Self.groups[1]))
        #expect(inet.attributes?[.synchronizable] == .bool(true))
        #expect(inet.attributes?[.accessible] == .string("ck"))
        #expect(inet.data.map { String(decoding: $0.bytes, as: UTF8.self) } == "inet-secret")
        let deviceOnly: [Accessibility] = [
            .whenUnlockedThisDeviceOnly, .afterFirstUnlockThisDeviceOnly, .alwaysThisDeviceOnly,
        ]
        for protection in deviceOnly {
            #expect(try everyGroup.count(genericQuery([.account: .string("acct-\(protection.rawValue)")])) == 0)
        }
    }

    @Test func thisDeviceOnlyItemsAreNotInTheFileAtAll() throws {
        let (source, _) = try populatedSource(clock: TestClock())
        try source.setPasscode(passcode)
        defer { source.simulateRestart() }
        try source.add(
            genericPassword(
                account: "acct-akpu", secret: "secret-akpu",
                accessibility: .whenPasscodeSetThisDeviceOnly))
        let url = backupURL()
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try source.backup(to: url, password: password) == BackupSummary(itemCount: 4, excludedCount: 4))

        let raw = try Data(contentsOf: url)
        let contents = try BackupArchive.open(Array(raw), password: password.storage)
        #expect(contents.excludedCount == 4)
        #expect(Set(contents.entries.map(\.protection)) == [.whenUnlocked, .afterFirstUnlock, .always])
        let decryptedAccounts = contents.entries.compactMap { $0.attributes[.account] }
        let decryptedSecrets = contents.entries.map { String(decoding: $0.secret.bytes, as: UTF8.self) }
        for name in ["aku", "cku", "dku", "akpu"] {
            #expect(!decryptedAccounts.contains(.string("acct-\(name)")))
            #expect(!decryptedSecrets.contains("secret-\(name)"))
        }
        // Nothing of any item is readable in the raw file, migratable or not.
        for name in ["ak", "ck", "dk", "aku", "cku", "dku", "akpu"] {
            for text in ["acct-\(name)", "secret-\(name)"] {
                #expect(raw.range(of: Data(text.utf8)) == nil)
            }
        }
    }

    @Test func wrongPasswordIsAuthFailedAndWritesNothing() throws {
        let (source, _) = try populatedSource(clock: TestClock())
        let url = backupURL()
        defer { try? FileManager.default.removeItem(at: url) }
        _ = try source.backup(to: url, password: password)
        let target = try keychain()
        try target.add(genericPassword(account: "already-here"))
        #expect(
            status { _ = try target.restore(from: url, password: Secret(Array("wrong".utf8))) }
                == SecurityStatus.authFailed)
        #expect(try total(target) == 1)
    }

    @Test func damagedFilesAreDecodeErrorsAndWriteNothing() throws {
        let (source, _) = try populatedSource(clock: TestClock())
        let url = backupURL()
        defer { try? FileManager.default.removeItem(at: url) }
        _ = try source.backup(to: url, password: password)
        let good = try Data(contentsOf: url)
        let target = try keychain()

        var variants: [(String, Data)] = [
            ("truncated by one byte", good.dropLast()), ("header only", good.prefix(BackupArchive.headerSize)),
            ("half", good.prefix(good.count / 2)), ("empty", Data()), ("garbage", Data(repeating: 0x5A, count: 512)),
        ]
        for offset in [
            0, 9, 12, 20, 40, BackupArchive.headerSize - 1, BackupArchive.headerSize + 3,
            good.count / 2, good.count - 1,
        ] {
            var flipped = good
            flipped[offset] ^= 0x01
            variants.append(("byte \(offset) flipped", flipped))
        }
        for (name, bytes) in variants {
            let damaged = backupURL()
            defer { try? FileManager.default.removeItem(at: damaged) }
            try bytes.write(to: damaged)
            let code = status { _ = try target.restore(from: damaged, password: password) }
            #expect(code == SecurityStatus.decode, "\(name)")
        }
        #expect(try total(target) == 0)
        #expect(try target.restore(from: url, password: password).itemCount == 4)
    }

    @Test func collisionsAreDuplicatesAndWriteNothing() throws {
        let (source, _) = try populatedSource(clock: TestClock())
        let url = backupURL()
        defer { try? FileManager.default.removeItem(at: url) }
        _ = try source.backup(to: url, password: password)

        // The same primary key as the backup's dk item, with another secret.
        let target = try keychain()
        try target.add(genericPassword(service: "svc", account: "acct-dk", secret: "mine"))
        let code = status { _ = try target.restore(from: url, password: password) }
        #expect(code == SecurityStatus.duplicateItem)
        #expect(try total(target) == 1)
        #expect(try target.secret(genericQuery([.account: .string("acct-dk")])) == "mine")

        // The same persistent reference under another primary key: restored once, renamed, restored again.
        let other = try keychain()
        _ = try other.restore(from: url, password: password)
        for name in ["ak", "ck", "dk"] {
            try other.update(
                genericQuery([.account: .string("acct-\(name)")], limit: .all),
                with: ItemChanges(attributes: [.account: .string("renamed-\(name)")]))
        }
        try other.delete(ItemQuery(itemClass: .internetPassword, synchronizable: .any, limit: .all))
        do {
            _ = try other.restore(from: url, password: password)
            Issue.record("a restore over the same persistent references succeeded")
        } catch let error as KeychainError {
            #expect(error.status == SecurityStatus.duplicateItem)
            #expect(error.reason?.contains("persistent reference") == true)
        }
        #expect(try total(other) == 3)
    }

    @Test func lockedClassAItemsMakeTheBackupFail() throws {
        let source = try keychain()
        defer { source.simulateRestart() }
        try source.setPasscode(passcode)
        try source.setGracePeriod(0)
        try source.add(genericPassword(account: "token", accessibility: .whenUnlocked))
        try source.add(genericPassword(account: "refresh", accessibility: .afterFirstUnlock))
        try source.add(genericPassword(account: "device", accessibility: .whenUnlockedThisDeviceOnly))
        try source.lock()
        let url = backupURL()
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(status { _ = try source.backup(to: url, password: password) } == SecurityStatus.interactionNotAllowed)
        #expect(!FileManager.default.fileExists(atPath: url.path))

        // Without class A items, AfterFirstUnlock (available since the first unlock) and the ThisDeviceOnly item,
        // which is skipped without its key, do not stop a backup of a locked keychain.
        try source.unlock(passcode: passcode)
        try source.delete(genericQuery([.account: .string("token")], limit: .all))
        try source.lock()
        #expect(try source.backup(to: url, password: password) == BackupSummary(itemCount: 1, excludedCount: 1))
    }

    @Test func aLockedTargetRefusesClassAItemsAndWritesNothing() throws {
        let source = try keychain()
        try source.add(genericPassword(account: "refresh", accessibility: .afterFirstUnlock))
        try source.add(genericPassword(account: "token", accessibility: .whenUnlocked))
        let url = backupURL()
        defer { try? FileManager.default.removeItem(at: url) }
        _ = try source.backup(to: url, password: password)

        let target = try keychain()
        defer { target.simulateRestart() }
        try target.setPasscode(passcode)
        try target.setGracePeriod(0)
        try target.lock()
        #expect(
            status { _ = try target.restore(from: url, password: password) }
                == SecurityStatus.interactionNotAllowed)
        try target.unlock(passcode: passcode)
        #expect(try total(target) == 0)
        #expect(try target.restore(from: url, password: password).itemCount == 2)
    }

    @Test func anExistingFileIsNeverReplaced() throws {
        let source = try keychain()
        try source.add(genericPassword())
        let url = backupURL()
        defer { try? FileManager.default.removeItem(at: url) }
        try Data("keep me".utf8).write(to: url)
        #expect(status { _ = try source.backup(to: url, password: password) } == SecurityStatus.param)
        #expect(try Data(contentsOf: url) == Data("keep me".utf8))
        #expect(status { _ = try source.backup(to: backupURL(), password: Secret([])) } == SecurityStatus.param)
        #expect(status { _ = try source.restore(from: backupURL(), password: password) } == SecurityStatus.param)
    }
}
