import Foundation
import KeychainCore
import Testing

@testable import SecurityCLI

/// Where `add-generic-password` takes the password from, as macOS's `security` does: `-w` last asks (or reads one
/// line of a standard input that is not a terminal); with no password option the item's password is empty and
/// standard input is not read.
@Suite struct PasswordOptionTests {
    private func secret(_ harness: CommandHarness) throws -> [UInt8]? {
        try harness.keychain().copyMatching(
            ItemQuery(itemClass: .genericPassword, attributes: [.service: .string("svc")], returns: .data)
        ).first?.data?.bytes
    }

    @Test func withoutAPasswordOptionTheItemsPasswordIsEmptyAndStandardInputIsNotRead() throws {
        let harness = CommandHarness()
        let run = harness.run(["add-generic-password", "-a", "me", "-s", "svc"], standardInput: "not-a-password\n")
        #expect(run.exitCode == 0)
        #expect(try secret(harness) == [])
    }

    @Test func wLastReadsOneLineOfStandardInput() throws {
        let harness = CommandHarness()
        let run = harness.run(["add-generic-password", "-a", "me", "-s", "svc", "-w"], standardInput: "pw-line\n")
        #expect(run.exitCode == 0)
        #expect(try secret(harness) == Array("pw-line".utf8))
    }

    @Test func theUsageSaysWhichOptionReadsStandardInput() {
        for verb in [SecurityVerb.addGenericPassword, .addInternetPassword] {
            let usage = verb.usage
            #expect(usage.contains("-w last"))
            #expect(usage.contains("empty password"))
        }
    }
}
