import Foundation
import KeychainStore
import Testing

@testable import KeychainCore

/// A text primary-key attribute an add leaves out takes Apple's default, empty data (securityd's blob columns
/// with the `E` flag), where the release before stored "". The digests hash a value's bytes without its type, so
/// rows of both releases are one primary key and answer the same lookups; a row keeps the form it was written in.
/// `Tests/Fixtures/absent-primary-key-attributes` is a home written by that release (see its README).
@Suite(.serialized) struct AbsentAttributeDefaultsTests {
    private static let group = "T.app"
    private static let password = Secret(Array("backup password".utf8))

    /// The private key bytes of the fixture's key item (opaque to the engine).
    private static let keyBytes: [UInt8] = [4] + Array(repeating: 0xA1, count: 64) + Array(repeating: 0x5C, count: 32)

    private func previousReleaseHome() throws -> Keychain {
        try makeKeychain(groups: [Self.group], home: try copyOfCommittedHome("absent-primary-key-attributes"))
    }

    private func freshHome() throws -> Keychain {
        try makeKeychain(groups: [Self.group])
    }

    private func generic(_ attributes: [AttributeKey: AttributeValue], secret: String = "new") -> NewItem {
        NewItem(itemClass: .genericPassword, attributes: attributes, data: bytes(secret))
    }

    private func internet(_ attributes: [AttributeKey: AttributeValue], secret: String = "new") -> NewItem {
        NewItem(itemClass: .internetPassword, attributes: attributes, data: bytes(secret))
    }

    /// A key item like the fixture's: application label 01 02 03, no tag unless given.
    private func key(label: [UInt8] = [1, 2, 3], extra: [AttributeKey: AttributeValue] = [:]) -> NewItem {
        var item = NewItem(itemClass: .key, attributes: [.applicationLabel: .data(label)].merging(extra) { $1 })
        item.value = .key(
            KeyValue(keyType: "73", keyClass: "1", sizeInBits: 256, externalRepresentation: Secret(Self.keyBytes)))
        return item
    }

    private func attributes(_ keychain: Keychain, _ itemClass: ItemClass, _ match: [AttributeKey: AttributeValue])
        throws -> [AttributeKey: AttributeValue]
    {
        try keychain.attributes(ItemQuery(itemClass: itemClass, attributes: match))
    }

    private func services(_ results: [ItemResult]) -> Set<String> {
        Set(
            results.compactMap {
                if case .string(let service)? = $0.attributes?[.service] { service } else { nil }
            })
    }

    @Test func defaultsAreEmptyDataForTextAttributesAndKeepTheirNumbersAndProtocol() throws {
        let generic = try #require(ClassSchema.of(.genericPassword))
        #expect(generic.defaultValue(for: .account) == .data([]))
        #expect(generic.defaultValue(for: .service) == .data([]))
        let internet = try #require(ClassSchema.of(.internetPassword))
        for key in [AttributeKey.account, .securityDomain, .server, .authenticationType, .path] {
            #expect(internet.defaultValue(for: key) == .data([]), "\(key)")
        }
        #expect(internet.defaultValue(for: .port) == .number(0))
        #expect(internet.defaultValue(for: .protocol) == .string(""))
        let key = try #require(ClassSchema.of(.key))
        #expect(key.defaultValue(for: .applicationTag) == .data([]))
        #expect(key.defaultValue(for: .applicationLabel) == .data([]))
        #expect(key.defaultValue(for: .keySizeInBits) == .number(0))
        let certificate = try #require(ClassSchema.of(.certificate))
        #expect(certificate.defaultValue(for: .issuer) == .data([]))
    }

    /// Empty data and "" have one column digest, one case-folded digest and one primary-key digest, and a row
    /// written with each stores the same digest columns.
    @Test func emptyDataAndAnEmptyStringDigestAlike() throws {
        let keychain = try freshHome()
        let digester = keychain.digester
        #expect(try digester.digest(.account, .data([])) == digester.digest(.account, .string("")))
        #expect(try digester.foldedDigest(.account, .data([])) == digester.foldedDigest(.account, .string("")))
        #expect(try digester.foldedDigest(.account, .data([])) != nil)
        let parts: (AttributeValue) -> [(AttributeKey, AttributeValue)] = {
            [
                (.account, $0), (.service, .string("s")), (.accessGroup, .string(Self.group)),
                (.synchronizable, .bool(false)),
            ]
        }
        #expect(
            try digester.primaryKeyDigest(.genericPassword, parts(.data([])))
                == digester.primaryKeyDigest(.genericPassword, parts(.string(""))))

        try keychain.add(generic([.service: .string("given"), .account: .string("")]))
        try keychain.add(generic([.service: .string("absent")]))
        #expect(try attributes(keychain, .genericPassword, [.service: .string("given")])[.account] == .string(""))
        #expect(try attributes(keychain, .genericPassword, [.service: .string("absent")])[.account] == .data([]))
        let database = try Database(
            path: keychain.configuration.home.appendingPathComponent(Keychain.databaseFileName).path)
        defer { database.close() }
        let rows = try database.statement("SELECT d_acct, f_acct FROM genp ORDER BY rowid").rows()
        #expect(rows.count == 2)
        #expect(rows[0] == rows[1])
        #expect(rows[0].allSatisfy { if case .blob(let digest) = $0 { digest.count == 16 } else { false } })
    }

    /// The rows the previous release wrote keep their "" (their sealed attributes cannot tell a default from a
    /// given ""); a row added now beside them reads empty data.
    @Test func rowsOfThePreviousReleaseKeepTheirEmptyStringsBesideNewRows() throws {
        let keychain = try previousReleaseHome()
        #expect(try attributes(keychain, .genericPassword, [.service: .string("svc")])[.account] == .string(""))
        #expect(try attributes(keychain, .genericPassword, [.service: .string("svc-empty")])[.account] == .string(""))
        #expect(
            try attributes(keychain, .genericPassword, [.account: .string("no-service")])[.service] == .string(""))
        let web = try attributes(keychain, .internetPassword, [.server: .string("example.com")])
        for key in [AttributeKey.account, .securityDomain, .authenticationType, .path, .protocol] {
            #expect(web[key] == .string(""), "\(key)")
        }
        #expect(web[.port] == .number(0))
        #expect(try attributes(keychain, .key, [.applicationLabel: .data([1, 2, 3])])[.applicationTag] == .string(""))
        #expect(try keychain.secret(genericQuery([.service: .string("svc")])) == "secret-no-account")

        try keychain.add(generic([.service: .string("svc-new")]))
        try keychain.add(internet([.server: .string("example.org")]))
        try keychain.add(key(label: [4, 5, 6]))
        #expect(try attributes(keychain, .genericPassword, [.service: .string("svc-new")])[.account] == .data([]))
        let org = try attributes(keychain, .internetPassword, [.server: .string("example.org")])
        for key in [AttributeKey.account, .securityDomain, .authenticationType, .path] {
            #expect(org[key] == .data([]), "\(key)")
        }
        #expect(org[.protocol] == .string(""))
        #expect(try attributes(keychain, .key, [.applicationLabel: .data([4, 5, 6])])[.applicationTag] == .data([]))
    }

    /// Rows of the previous release first, adds of this one after: every add that leaves the same attributes out,
    /// or gives them as "" or empty data, is errSecDuplicateItem, explained with the new default.
    @Test func newAddsCollideWithRowsOfThePreviousRelease() throws {
        let keychain = try previousReleaseHome()
        let collisions: [NewItem] = [
            generic([.service: .string("svc")]),
            generic([.service: .string("svc"), .account: .string("")]),
            generic([.service: .string("svc"), .account: .data([])]),
            generic([.service: .string("svc-empty")]),
            generic([.account: .string("no-service")]),
            generic([.account: .string("no-service"), .service: .data([])]),
            internet([.server: .string("example.com")]),
            internet([
                .server: .string("example.com"), .account: .data([]), .securityDomain: .string(""), .path: .data([]),
                .authenticationType: .string(""), .protocol: .string(""), .port: .number(0),
            ]),
            key(),
            key(extra: [.applicationTag: .data([])]),
        ]
        for item in collisions {
            let error = try #require(throws: KeychainError.self) { try keychain.add(item) }
            #expect(error.status == SecurityStatus.duplicateItem, "\(item.attributes)")
        }
        let error = try #require(throws: KeychainError.self) {
            try keychain.add(generic([.service: .string("svc")]))
        }
        #expect(
            error.reason
                == "an item with the same primary key exists (acct=<0 bytes>, svce=\"svc\", agrp=\"T.app\", "
                + "sync=false); the add left out acct (defaulted to empty data, which matches an empty string), so "
                + "it collides with any item stored without it: give it a value, or use SecItemUpdate to change the "
                + "existing item")
        #expect(
            error.localizedReason(in: .japanese)?.contains("acct（既定値は空のデータ。空の文字列と一致します）") == true)
        #expect(try keychain.count(ItemQuery(itemClass: .genericPassword)) == 3)
    }

    /// Rows of this release first, rows of the previous one after: its items, restored from a backup of its home,
    /// collide with the new rows of the same primary key (each kind alone), and restore beside them otherwise,
    /// keeping their "".
    @Test func rowsOfThePreviousReleaseCollideWithNewRows() throws {
        let source = try previousReleaseHome()
        let (archive, summary) = try source.backupArchive(password: Self.password)
        #expect(summary.itemCount == 5)
        let newRows: [NewItem] = [
            generic([.service: .string("svc")]), generic([.service: .string("svc-empty")]),
            generic([.account: .string("no-service")]), internet([.server: .string("example.com")]), key(),
        ]
        for item in newRows {
            let target = try freshHome()
            try target.add(item)
            let added = try #require(
                try target.copyMatching(ItemQuery(itemClass: item.itemClass, returns: .attributes)).first)
            let defaulted: AttributeKey =
                switch item.itemClass {
                case .key: .applicationTag
                case .genericPassword where item.attributes[.account] != nil: .service
                default: .account
                }
            #expect(added.attributes?[defaulted] == .data([]), "\(item.attributes)")
            let error = try #require(throws: KeychainError.self) {
                try target.restore(archive: archive, password: Self.password)
            }
            #expect(error.status == SecurityStatus.duplicateItem, "\(item.attributes)")
            #expect(try target.count(ItemQuery(itemClass: item.itemClass)) == 1)
        }
        let empty = try freshHome()
        #expect(try empty.restore(archive: archive, password: Self.password).itemCount == 5)
        #expect(try attributes(empty, .genericPassword, [.service: .string("svc")])[.account] == .string(""))
        #expect(try attributes(empty, .key, [.applicationLabel: .data([1, 2, 3])])[.applicationTag] == .string(""))
    }

    /// A query by "", by empty data, or case-insensitively by "" finds the rows of both releases, and so do
    /// data-only lookups (answered by digests and the secret's seal alone).
    @Test func lookupsFindRowsOfBothReleasesAlike() throws {
        let keychain = try previousReleaseHome()
        try keychain.add(generic([.service: .string("svc-new")], secret: "secret-new"))
        #expect(try attributes(keychain, .genericPassword, [.service: .string("svc-new")])[.account] == .data([]))
        for (value, caseInsensitive) in [(AttributeValue.string(""), false), (.data([]), false), (.string(""), true)] {
            let found = try keychain.copyMatching(
                genericQuery(
                    [.account: value], limit: .all, returns: .attributes, caseInsensitive: caseInsensitive))
            #expect(services(found) == ["svc", "svc-empty", "svc-new"], "\(value) \(caseInsensitive)")
        }
        #expect(
            try keychain.secret(genericQuery([.service: .string("svc"), .account: .string("")])) == "secret-no-account")
        #expect(
            try keychain.secret(genericQuery([.service: .string("svc-new"), .account: .string("")])) == "secret-new")
        #expect(
            try keychain.secret(genericQuery([.service: .string("svc"), .account: .data([])])) == "secret-no-account")
        #expect(
            try keychain.secret(genericQuery([.account: .string("no-service"), .service: .data([])]))
                == "secret-no-service")

        try keychain.add(internet([.server: .string("example.org")]))
        let byPath = try keychain.copyMatching(
            ItemQuery(
                itemClass: .internetPassword, attributes: [.path: .string(""), .securityDomain: .data([])],
                limit: .all, returns: .attributes))
        #expect(byPath.count == 2)
        try keychain.add(key(label: [4, 5, 6]))
        #expect(try keychain.count(ItemQuery(itemClass: .key, attributes: [.applicationTag: .string("")])) == 2)
        #expect(try keychain.count(ItemQuery(itemClass: .key, attributes: [.applicationTag: .data([])])) == 2)
    }

    /// An update works out the primary key of both forms alike, and leaves each row's form as it was.
    @Test func updatesTreatBothFormsAsOnePrimaryKey() throws {
        let keychain = try previousReleaseHome()
        try keychain.add(generic([.service: .string("svc-new")]))
        let error = try #require(throws: KeychainError.self) {
            try keychain.update(
                genericQuery([.service: .string("svc-new")], limit: .all),
                with: ItemChanges(attributes: [.service: .string("svc")]))
        }
        #expect(error.status == SecurityStatus.duplicateItem)
        try keychain.update(
            genericQuery([.service: .string("svc"), .account: .data([])], limit: .all),
            with: ItemChanges(attributes: [.label: .string("old")]))
        try keychain.update(
            genericQuery([.service: .string("svc-new"), .account: .string("")], limit: .all),
            with: ItemChanges(attributes: [.service: .string("svc-moved")]))
        #expect(try attributes(keychain, .genericPassword, [.label: .string("old")])[.account] == .string(""))
        #expect(try attributes(keychain, .genericPassword, [.service: .string("svc-moved")])[.account] == .data([]))
        // Moving the old row onto the new one's primary key collides too.
        let moved = try #require(throws: KeychainError.self) {
            try keychain.update(
                genericQuery([.service: .string("svc")], limit: .all),
                with: ItemChanges(attributes: [.service: .string("svc-moved")]))
        }
        #expect(moved.status == SecurityStatus.duplicateItem)
    }
}
