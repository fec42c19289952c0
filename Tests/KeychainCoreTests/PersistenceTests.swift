import Foundation
import KeychainTestSupport
import Testing

@testable import KeychainCore

/// A keychain home keeps its items across opens, with key files only its owner can read.
@Suite struct PersistenceTests {
    @Test func reopeningPreservesItemsWithTheirAttributes() throws {
        let clock = TestClock()
        let home = temporaryHome()
        let keychain = try makeKeychain(home: home, clock: clock.function)
        try keychain.add(genericPassword(account: "a", secret: "first", extra: [.label: .data([1, 2])]))
        try keychain.add(
            NewItem(
                itemClass: .internetPassword,
                attributes: [
                    .server: .string("example.com"),
                    .port: .number(22),
                ], data: bytes("inet")))
        let reference = try keychain.copyMatching(genericQuery([:], returns: .persistentReference))[0]
            .persistentReference
        keychain.close()

        let reopened = try makeKeychain(home: home)
        let item = try reopened.copyMatching(genericQuery([:], returns: [.data, .attributes, .persistentReference]))[0]
        #expect(item.data?.bytes == bytes("first"))
        #expect(item.attributes?[.label] == .data([1, 2]))
        #expect(item.attributes?[.creationDate] == .date(clock.now))
        #expect(item.persistentReference == reference)
        let inet = try reopened.copyMatching(
            ItemQuery(
                itemClass: .internetPassword, attributes: [.port: .number(22)],
                returns: .data))
        #expect(inet[0].data?.bytes == bytes("inet"))
        #expect(throws: KeychainError.duplicateItem) { try reopened.add(genericPassword(account: "a")) }
        #expect(try reopened.integrityCheck() == "ok")
    }

    @Test func keyFilesAreOwnerOnlyAndHomeIsPrivate() throws {
        let home = temporaryHome()
        let keychain = try makeKeychain(home: home)
        try keychain.add(genericPassword())
        keychain.close()
        func permissions(_ name: String) throws -> Int? {
            let path = name.isEmpty ? home.path : home.appendingPathComponent(name).path
            return (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
        }
        #expect(try permissions("device.key") == 0o600)
        #expect(try permissions("keybag") == 0o600)
        #expect(try permissions("") == 0o700)
        #expect(try Data(contentsOf: home.appendingPathComponent("device.key")).count == 32)
    }

    @Test func anotherDeviceKeyCannotOpenTheKeychain() throws {
        let home = temporaryHome()
        try makeKeychain(home: home).add(genericPassword())
        let deviceKey = home.appendingPathComponent("device.key")
        try FileManager.default.removeItem(at: deviceKey)
        try Data(repeating: 7, count: 32).write(to: deviceKey)
        let error = #expect(throws: KeychainError.self) { try makeKeychain(home: home) }
        #expect(error?.status == -25291)
    }

    @Test func twoOpenKeychainsOnOneHomeSeeEachOthersWrites() throws {
        let home = temporaryHome()
        let first = try makeKeychain(home: home)
        let second = try makeKeychain(home: home)
        try first.add(genericPassword(secret: "from first"))
        #expect(try second.secret(genericQuery([:])) == "from first")
        #expect(throws: KeychainError.duplicateItem) { try second.add(genericPassword()) }
        try second.update(genericQuery([:], limit: .all), with: ItemChanges(data: bytes("from second")))
        #expect(try first.secret(genericQuery([:])) == "from second")
    }
}

@Suite struct FileModeTests {
    @Test func everyFileOfTheHomeIsOwnerOnly() throws {
        let home = temporaryHome()
        let keychain = try makeKeychain(home: home)
        try keychain.add(NewItem(itemClass: .genericPassword, attributes: [.account: .string("a")], data: [1]))
        for name in try FileManager.default.contentsOfDirectory(atPath: home.path) {
            let attributes = try FileManager.default.attributesOfItem(atPath: home.appendingPathComponent(name).path)
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? 0
            #expect(mode & 0o077 == 0, "\(name) has mode \(String(mode, radix: 8))")
        }
        keychain.close()
    }
}
