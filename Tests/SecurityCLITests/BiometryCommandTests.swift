import Foundation
import KeychainCore
import Testing

@testable import SecurityCLI

@Suite struct BiometryCommandTests {
    @Test func parsesEveryAction() throws {
        for action in BiometryCommand.allCases {
            #expect(try CommandParser.parse(["biometry", action.rawValue]).command == .biometry(action))
        }
        #expect(throws: UsageError.self) { try CommandParser.parse(["biometry"]) }
        #expect(throws: UsageError.self) { try CommandParser.parse(["biometry", "wave"]) }
    }

    @Test func drivesTheSimulatedSensor() throws {
        let harness = CommandHarness()
        #expect(harness.run(["biometry", "enroll"]).exitCode == 0)
        #expect(harness.run(["biometry", "match"]).exitCode == 0)
        #expect(harness.run(["biometry", "nomatch"]).exitCode == 0)
        let status = try harness.keychain().authenticators.biometry.status()
        #expect(status.isEnrolled && status.script == [.match, .noMatch])
        let printed = harness.run(["biometry", "status"])
        #expect(printed.output.contains("enrolled") && printed.output.contains("queued: match noMatch"))
        // The harness's keychain has no system back end configured: its prompts are scripted only.
        #expect(printed.output.contains("device owner: scripted prompts only"))
        #expect(printed.output.contains("fingerprint reader: "))
        #expect(harness.run(["biometry", "unenroll"]).exitCode == 0)
        #expect(harness.run(["biometry", "change-enrollment"]).exitCode != 0)
    }
}
