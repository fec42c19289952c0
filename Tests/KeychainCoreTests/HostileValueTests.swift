import Foundation
import KeychainCrypto
import KeychainTestSupport
import Testing

@testable import KeychainCore

/// Values no clock produces (NaN, infinities, dates beyond year 9999) are refused where they come in, and a
/// stored one never traps whatever prints it: a trap in a keychain is a denial of service.
@Suite struct HostileValueTests {
    static let hostileDates: [Double] = [.nan, .infinity, -.infinity, 1e300, -1e300, 252_423_993_600]

    @Test(arguments: hostileDates)
    func aQueryWithAnImpossibleDateIsAParameterError(seconds: Double) throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword())
        for key in [AttributeKey.creationDate, .modificationDate] {
            let query = genericQuery([key: .date(Date(timeIntervalSinceReferenceDate: seconds))])
            #expect(status { _ = try keychain.copyMatching(query) } == SecurityStatus.param)
            #expect(
                status {
                    try keychain.delete(
                        genericQuery(
                            [
                                key: .date(
                                    Date(
                                        timeIntervalSinceReferenceDate:
                                            seconds))
                            ], limit: .all))
                } == SecurityStatus.param)
        }
    }

    @Test func theExtremesOfTheCalendarAreStillDates() throws {
        let keychain = try makeKeychain()
        try keychain.add(genericPassword())
        for seconds in [-63_113_904_000.0, 252_423_993_599] {
            let query = genericQuery([.creationDate: .date(Date(timeIntervalSinceReferenceDate: seconds))])
            #expect(status { _ = try keychain.copyMatching(query) } == SecurityStatus.itemNotFound)
        }
    }

    @Test(arguments: hostileDates)
    func aBackupWithAnImpossibleDateRestoresNothing(seconds: Double) throws {
        let date = AttributeValue.date(Date(timeIntervalSinceReferenceDate: seconds))
        let entry = BackupEntry(
            itemClass: .genericPassword, uuid: Array(repeating: 7, count: 16), protection: .afterFirstUnlock,
            attributes: [
                .account: .string("a"), .service: .string("s"), .accessGroup: .string("TEAM1.com.example.app"),
                .synchronizable: .bool(false), .creationDate: date, .modificationDate: .date(Date()),
            ],
            secret: SecureBytes(Array("x".utf8)))
        let good = BackupEntry(
            itemClass: .genericPassword, uuid: Array(repeating: 8, count: 16), protection: .afterFirstUnlock,
            attributes: [
                .account: .string("b"), .service: .string("s"), .accessGroup: .string("TEAM1.com.example.app"),
                .synchronizable: .bool(false), .creationDate: .date(Date()), .modificationDate: .date(Date()),
            ],
            secret: SecureBytes(Array("y".utf8)))
        let password = SecureBytes(Array("pw".utf8))
        let file = try BackupArchive.seal(BackupContents(entries: [good, entry]), password: password, iterations: 1000)
        let url = temporaryHome().appendingPathExtension("backup")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(file).write(to: url)

        let keychain = try makeKeychain()
        #expect(
            status { _ = try keychain.restore(from: url, password: Secret(Array("pw".utf8))) }
                == SecurityStatus.decode)
        #expect(
            status { _ = try keychain.copyMatching(genericQuery([:], limit: .all)) }
                == SecurityStatus.itemNotFound)
    }

    @Test func explanationsPrintAnImpossibleStoredDateWithoutTrapping() {
        let text = Keychain.display(.date(Date(timeIntervalSinceReferenceDate: .nan)))
        #expect(text.contains("nan"))
        #expect(Keychain.display(.date(Date(timeIntervalSinceReferenceDate: 1e300))).contains("1e+300"))
    }
}
