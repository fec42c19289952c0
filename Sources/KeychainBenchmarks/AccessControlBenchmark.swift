import Foundation
import KeychainCore

/// Reads of access-controlled items within a context that was evaluated once (Apple's reuse pattern: evaluate,
/// then query with `kSecUseAuthenticationContext`), against reads of plain items in the same keychain.
/// Issue 6's bound: a reused-context read costs no more than 2× a plain read.
enum AccessControlBenchmark {
    static let itemCount = 1_000

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

        let plain = try measure(keychain, "plain", lookups: lookups, context: nil, secret: secret)
        report(plain)
        for (name, _) in flags {
            let constrained = try measure(keychain, name, lookups: lookups, context: context, secret: secret)
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

    private static func measure(
        _ keychain: Keychain, _ service: String, lookups: Int, context: AuthenticationContext?, secret: [UInt8]
    ) throws -> Measurement {
        let name = context == nil ? "engine: plain read" : "engine: \(service), reused context"
        return try Measurement.run(name, count: lookups) { index in
            var query = ItemQuery.genericPassword(
                service: service, account: "acct\((index * 7919) % itemCount)", returns: .data)
            // No prompt may happen: the context's evaluation must be reused.
            query.authentication = ReadAuthentication(ui: .fail)
            let found = try keychain.copyMatching(query, context: context)
            precondition(found[0].data?.count == secret.count)
        }
    }
}
