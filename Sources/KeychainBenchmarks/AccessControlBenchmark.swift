import Foundation
import KeychainCore

/// Reads of access-controlled items within a context that was evaluated once (Apple's reuse pattern: evaluate,
/// then query with `kSecUseAuthenticationContext`), against reads of plain items in the same keychain.
/// Issue 6's bound: a reused-context read costs no more than 2× a plain read. The kinds of read take turns, 100
/// reads at a time, so that the ratio compares reads that met the same machine.
enum AccessControlBenchmark {
    static let itemCount = 1_000

    /// `keychain-benchmarks access-control [LOOKUPS]`: only this part, LOOKUPS reads of each kind (5,000).
    static func runIfAsked() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard arguments.first == "access-control" else { return }
        let lookups = arguments.count > 1 ? Int(arguments[1]) ?? 5_000 : 5_000
        do {
            try run(lookups: max(1, lookups))
        } catch {
            FileHandle.standardError.write(Data("access-control: \(error)\n".utf8))
            exit(1)
        }
        exit(0)
    }

    static func run(lookups: Int) throws {
        print("")
        print("Access control (reads within a reused, evaluated context vs plain reads, \(itemCount) items each):")
        var configuration = KeychainConfiguration(
            home: scratchDirectory("access-control"),
            identity: CallerIdentity(applicationIdentifier: "BENCH.app", accessGroups: ["BENCH.app"]))
        configuration.passcodeDerivationTarget = 0.002
        let keychain = try Keychain(configuration: configuration)
        defer {
            keychain.simulateRestart()
            keychain.close()
        }
        try keychain.setPasscode(Secret(Array("1234".utf8)))
        try keychain.authenticators.biometry.enroll()
        let secret = Array("correct horse battery staple 123".utf8)
        let flags: [(String, AccessControlFlags)] = [
            ("biometryAny", .biometryAny), ("userPresence", .userPresence), ("biometryCurrentSet", .biometryCurrentSet),
        ]
        try keychain.add(contentsOf: (0..<itemCount).map { item("plain", $0, secret: secret, flags: nil) })
        for (name, bits) in flags {
            try keychain.add(contentsOf: (0..<itemCount).map { item(name, $0, secret: secret, flags: bits) })
        }
        let context = AuthenticationContext()
        try keychain.authenticators.biometry.script(.match)
        try keychain.authenticators.evaluate(.biometrics, context: context)

        // Interleaved in chunks, so that whatever else the machine does slows plain and constrained reads alike.
        let kinds: [(name: String, service: String, context: AuthenticationContext?)] =
            [("engine: plain read", "plain", nil)]
            + flags.map { ("engine: \($0.0), reused context", $0.0, context) }
        let measured = try Interleaved.run(
            count: lookups, chunk: 100,
            kinds.map { kind in
                (kind.name, { index in try read(keychain, kind.service, index, context: kind.context, secret: secret) })
            })
        let plain = measured[0]
        report(plain)
        for (name, constrained) in zip(flags.map(\.0), measured.dropFirst()) {
            report(constrained)
            print(
                String(
                    format: "  %@ / plain: %.2f× (bound: 2×)", name,
                    constrained.microsecondsPerOp / plain.microsecondsPerOp))
        }
    }

    private static func item(_ service: String, _ index: Int, secret: [UInt8], flags: AccessControlFlags?) -> NewItem {
        NewItem(
            itemClass: .genericPassword,
            attributes: [.service: .string(service), .account: .string("acct\(index)")],
            accessControl: flags.map { AccessControlPolicy(accessibility: .whenUnlockedThisDeviceOnly, flags: $0) },
            data: secret)
    }

    /// One read of item `index` (scrambled) of `service`, returning data.
    private static func read(
        _ keychain: Keychain, _ service: String, _ index: Int, context: AuthenticationContext?, secret: [UInt8]
    ) throws {
        var query = ItemQuery.genericPassword(
            service: service, account: "acct\((index * 7919) % itemCount)", returns: .data)
        // No prompt may happen: the context's evaluation must be reused.
        query.authentication = ReadAuthentication(ui: .fail)
        let found = try keychain.copyMatching(query, context: context)
        precondition(found[0].data?.count == secret.count)
    }
}
