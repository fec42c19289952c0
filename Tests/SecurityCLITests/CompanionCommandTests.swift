import Foundation
import KeychainCore
import Testing

@testable import SecurityCLI

@Suite struct CompanionCommandTests {
    @Test func parsesEveryAction() throws {
        for action in CompanionCommand.allCases {
            #expect(try CommandParser.parse(["companion", action.rawValue]).command == .companion(action))
        }
        #expect(throws: UsageError.self) { try CommandParser.parse(["companion"]) }
        #expect(throws: UsageError.self) { try CommandParser.parse(["companion", "wave"]) }
    }

    @Test func drivesTheSimulatedCompanion() throws {
        let harness = CommandHarness()
        #expect(harness.run(["companion", "pair"]).exitCode == 0)
        #expect(harness.run(["companion", "approve"]).exitCode == 0)
        #expect(harness.run(["companion", "deny"]).exitCode == 0)
        #expect(harness.run(["companion", "cancel"]).exitCode == 0)
        let status = try harness.keychain().authenticators.companion.status()
        #expect(status.isPaired && status.script == [.approve, .deny, .cancel])
        let printed = harness.run(["companion", "status"])
        #expect(printed.output.contains("paired") && printed.output.contains("queued: approve deny cancel"))
        #expect(harness.run(["companion", "unpair"]).exitCode == 0)
        #expect(harness.run(["companion", "status"]).output.contains("not paired"))
        #expect(harness.run(["help", "companion"]).output.contains("companion pair|unpair"))
    }
}
