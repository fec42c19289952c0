import Foundation
import Testing

@testable import KeychainCore

/// No secret and no attribute value reaches the disk in plaintext: every file of the home is searched.
@Suite struct PlaintextOnDiskTests {
    private static let needles = [
        "SECRET-zq7Lw3Pq-unmistakable", "ACCOUNT-kr4Vt9Hz-alice@example.com", "SERVICE-mm2Xc8Nd-com.example.mail",
        "LABEL-pp5Yb1Qs-Work Mail", "COMMENT-gh6Rt2Lk-note", "SERVER-jj3Wn7Fa.example.org", "PATH-uu8Ee4Zo/login",
        "UPDATED-SECRET-vv1Oi9Xa",
    ]

    private func fileContents(in home: URL) throws -> [(String, [UInt8])] {
        let names = try FileManager.default.contentsOfDirectory(atPath: home.path)
        return try names.map { name in (name, Array(try Data(contentsOf: home.appendingPathComponent(name)))) }
    }

    private func occurrences(of needle: [UInt8], in haystack: [UInt8]) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        var index = 0
        while index <= haystack.count - needle.count {
            if haystack[index] == first, haystack[index..<index + needle.count].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }

    private func expectNoNeedle(in home: URL, expectedFiles: Set<String>) throws {
        let files = try fileContents(in: home)
        #expect(expectedFiles.isSubset(of: Set(files.map(\.0))), "files: \(files.map(\.0))")
        for (name, contents) in files {
            for needle in Self.needles {
                #expect(!occurrences(of: bytes(needle), in: contents), "\(needle) in plaintext in \(name)")
                #expect(!occurrences(of: bytes(needle.lowercased()), in: contents), "\(needle) folded in \(name)")
            }
        }
    }

    @Test func noSecretOrAttributeIsStoredInPlaintext() throws {
        let home = temporaryHome()
        let keychain = try makeKeychain(home: home)
        try keychain.add(
            NewItem(
                itemClass: .genericPassword,
                attributes: [
                    .service: .string(Self.needles[2]), .account: .string(Self.needles[1]),
                    .label: .string(Self.needles[3]), .comment: .data(bytes(Self.needles[4])),
                ],
                data: bytes(Self.needles[0])))
        try keychain.add(
            NewItem(
                itemClass: .internetPassword,
                attributes: [
                    .server: .string(Self.needles[5]), .path: .string(Self.needles[6]),
                    .account: .data(bytes(Self.needles[1])),
                ],
                accessibility: .afterFirstUnlockThisDeviceOnly, data: bytes(Self.needles[0])))
        try keychain.update(
            ItemQuery(itemClass: .internetPassword, limit: .all), with: ItemChanges(data: bytes(Self.needles[7])))
        // Case-insensitive lookups exercise the folded digests too.
        _ = try keychain.copyMatching(
            genericQuery(
                [.account: .string(Self.needles[1].uppercased())],
                returns: .data, caseInsensitive: true))
        // While open, the write-ahead log holds the recent pages.
        try expectNoNeedle(
            in: home,
            expectedFiles: [
                Keychain.databaseFileName, Keychain.databaseFileName + "-wal", Keychain.databaseFileName + "-shm",
                "keybag", "device.key",
            ])
        keychain.close()
        try expectNoNeedle(in: home, expectedFiles: [Keychain.databaseFileName, "keybag", "device.key"])
        // The search itself works: the needles are what a plaintext store would contain.
        let reopened = try makeKeychain(home: home)
        #expect(try reopened.secret(genericQuery([.service: .string(Self.needles[2])])) == Self.needles[0])
    }
}
