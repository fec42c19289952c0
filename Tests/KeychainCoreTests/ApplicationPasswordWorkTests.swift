import Foundation
import KeychainStore
import Testing

@testable import KeychainCore

/// The PBKDF2 rounds of a new application-password alternative follow the passcode's, but never fall below what
/// this machine's tuning gives: the keybag is a file a writer of the home can change, and a count it lowered must
/// not make the next items cheap to guess.
@Suite(.serialized) struct ApplicationPasswordWorkTests {
    @Test func aLoweredCountInTheKeybagDoesNotCheapenNewItems() throws {
        let home = temporaryHome()
        let keychain = try fastKDFKeychain(home: home)
        defer { keychain.simulateRestart() }
        try keychain.setPasscode(testPasscode)
        try editKeybag(in: home) { document in
            var passcode = try #require(document["passcode"] as? [String: Any])
            passcode["iterations"] = 1
            document["passcode"] = passcode
        }
        #expect(try keychain.dataProtection.passcodeIterations == 1, "the keybag as changed is read")

        let context = AuthenticationContext()
        context.setApplicationPassword(Array("app-password".utf8))
        var item = NewItem(
            itemClass: .genericPassword, attributes: [.account: .string("tampered")], data: Array("secret".utf8))
        item.accessControl = AccessControlPolicy(accessibility: .whenUnlocked, flags: .applicationPassword)
        try keychain.add(item, context: context)

        let rounds = try applicationPasswordRounds(in: keychain)
        #expect(rounds.count == 1)
        #expect(rounds.allSatisfy { $0 >= 1_000 }, "\(rounds)")
    }

    /// The rounds of every application-password alternative of the generic passwords' envelopes.
    private func applicationPasswordRounds(in keychain: Keychain) throws -> [Int] {
        let schema = try keychain.schema(.genericPassword)
        let rows = try keychain.withStore { store in
            try store.select(from: "genp", where: RowFilter(), reading: [.metadata, .secret])
        }
        var rounds: [Int] = []
        for row in rows {
            let protection = try #require(Accessibility(rawValue: row.protection))
            let sealer = keychain.sealer(for: row, schema: schema, protection: protection)
            let itemKey = try sealer.itemKey(
                wrapped: row.wrappedKey, classKey: try keychain.dataProtection.classKey(protection))
            let column = try keychain.constrainedEnvelopeColumn(row.secret, sealer: sealer, itemKey: itemKey)
            let (envelope, _) = try ConstraintEnvelope.unframing(column)
            rounds += envelope.alternatives.filter { $0.factors.contains(.applicationPassword) }.map(\.iterations)
        }
        return rounds
    }
}
