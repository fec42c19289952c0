import Foundation
import Testing

@testable import KeychainCore
@testable import SecurityCLI

/// Values no real clock gives (NaN, infinities, 1e300 seconds) and numbers out of range: every listing prints
/// them without a trap, and the command's numeric options refuse them with a usage error.
@Suite struct HostileValueTests {
    static let hostileSeconds: [Double] = [.nan, .infinity, -.infinity, 1e300, -1e300, 253_402_300_800]

    @Test(arguments: hostileSeconds)
    func timestampsOfUnrepresentableDatesSayWhatTheyAre(seconds: Double) {
        let text = ItemListing.timestamp(Date(timeIntervalSince1970: seconds))
        #expect(!text.hasSuffix("Z"))
        #expect(text.hasPrefix("invalid date"))
    }

    @Test func timestampsAtTheEdgesOfFourDigitYears() {
        #expect(ItemListing.timestamp(Date(timeIntervalSince1970: -62_167_219_200)) == "00000101000000Z")
        #expect(ItemListing.timestamp(Date(timeIntervalSince1970: 253_402_300_799)) == "99991231235959Z")
        #expect(ItemListing.timestamp(Date(timeIntervalSince1970: -0.5)) == "19691231235959Z")
    }

    @Test(arguments: hostileSeconds)
    func jsonAndDoctorFormsOfUnrepresentableDates(seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        #expect((JSONText.value(.date(date)) as? String)?.hasPrefix("invalid date") == true)
        #expect(JSONText.encode(["cdat": JSONText.value(.date(date))]).hasPrefix("{\"cdat\":\"invalid date"))
        // doctor prints the primary key; a date there (never a real item's) goes through the same formatter.
        let key = SecurityCommandRunner.primaryKeyText(
            [.service: .string("s"), .account: .date(date)], .genericPassword)
        #expect(key.hasPrefix("acct=invalid date ("))
    }

    @Test(arguments: hostileSeconds)
    func itemsWithUnrepresentableDatesCanBeListedAndDeleted(seconds: Double) throws {
        let harness = CommandHarness()
        harness.clock = { Date(timeIntervalSince1970: seconds) }
        let add = harness.run(["add-generic-password", "-a", "a", "-s", "odd", "-w", "pw"])
        try #require(add.exitCode == 0, "the engine stores the clock's date: \(add.errors)")
        let find = harness.run(["find-generic-password", "-s", "odd"])
        #expect(find.exitCode == 0)
        #expect(find.output.contains("\"cdat\"<timedate>="))
        #expect(harness.run(["dump-keychain", "-d"]).exitCode == 0)
        #expect(harness.run(["--json", "dump-keychain"]).exitCode == 0)
        #expect(harness.run(["--json", "find-generic-password", "-s", "odd"]).exitCode == 0)
        let copy = harness.doctor("copy", json: #"{"class":"genp","svce":"odd"}"#)
        #expect(copy.exitCode == 0)
        #expect(harness.run(["delete-generic-password", "-s", "odd"]).exitCode == 0)
        #expect(harness.run(["find-generic-password", "-s", "odd"]).exitCode == 44)
    }

    @Test func gracePeriodsOutOfRangeAreUsageErrors() throws {
        for value in ["4294967296", "9223372036854775807", "99999999999999999999", "-1", "nan", "1e3", "0x10", ""] {
            #expect(throws: UsageError.self, "\(value)") {
                try CommandParser.parse(["set-keychain-settings", "-t", value])
            }
        }
        let largest = try CommandParser.parse(["set-keychain-settings", "-t", "4294967295"])
        #expect(largest.command == .setKeychainSettings(SetKeychainSettingsCommand(gracePeriod: 4_294_967_295)))
        let harness = CommandHarness()
        let refused = harness.run(["set-keychain-settings", "-t", "9223372036854775807"])
        #expect(refused.exitCode == ExitCode.usage)
        #expect(refused.errors.contains("0 to 4294967295"))
    }

    @Test func numericOptionsOutOfRangeAreUsageErrors() {
        for arguments in [
            ["find-internet-password", "-P", "65536"], ["find-internet-password", "-P", "-1"],
            ["find-internet-password", "-P", "99999999999999999999"], ["find-generic-password", "-c", "toolong"],
            ["find-generic-password", "-C", "\u{E9}t\u{E9}"], ["find-generic-password", "-c", ""],
            ["error", "99999999999"], ["error", "0x1FFFFFFFF"], ["error", "nan"],
        ] {
            #expect(throws: UsageError.self, "\(arguments)") { try CommandParser.parse(arguments) }
        }
    }

    @Test func showKeychainInfoPrintsNonFiniteFiguresWithoutTrapping() {
        let info = KeychainInfo(
            lockState: .locked, hasPasscode: true, gracePeriod: Int.max, kdfIterations: Int.max,
            kdfMilliseconds: .infinity, failedAttempts: Int.max, retryAfterSeconds: .nan, classKeyStore: "memory")
        let report = KeychainInfoReport(keychainPath: "/k/keychain.db", info: info, secureEnclave: .none)
        #expect(report.text.contains("\(Int.max) iterations, cost unknown"))
        #expect(report.text.contains("retry after: unknown"))
        #expect(report.json().contains("\"lockState\":\"locked\""))
        #expect(report.json().contains("\"retryAfterSeconds\":null"))
    }
}
