import Foundation
import KeychainCore

/// `keychain-benchmarks profile-lookups floor|engine ITEMS LOOKUPS`: fills a fresh store with ITEMS generic
/// passwords and runs LOOKUPS lookups by primary key returning data, of one kind, and nothing else. For counting
/// instructions per lookup under `valgrind --tool=callgrind`, which are repeatable where times are not: run it
/// with two LOOKUPS counts and divide the difference in instructions by the difference in lookups
/// (docs/benchmarks.md gives the commands).
enum LookupProfile {
    static func runIfAsked() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard arguments.first == "profile-lookups", arguments.count == 4, let items = Int(arguments[2]),
            let lookups = Int(arguments[3]), items > 0, lookups >= 0
        else { return }
        let secret = Array("correct horse battery staple 123".utf8)
        let directory = scratchDirectory("profile")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            switch arguments[1] {
            case "floor":
                let store = FloorStore(directory: directory)
                store.fill(count: items, secret: secret) { Array("svc\u{0}acct\($0)".utf8) }
                for index in 0..<lookups {
                    guard store.lookup(primaryKey: Array("svc\u{0}acct\((index * 7919) % items)".utf8)) > 0 else {
                        fail("floor lookup \(index) found nothing")
                    }
                }
            case "engine":
                let keychain = try Keychain(
                    configuration: KeychainConfiguration(
                        home: directory,
                        identity: CallerIdentity(applicationIdentifier: "BENCH.app", accessGroups: ["BENCH.app"])))
                var next = 0
                while next < items {
                    let end = min(next + 5_000, items)
                    try keychain.add(
                        contentsOf: (next..<end).map {
                            NewItem(
                                itemClass: .genericPassword,
                                attributes: [.service: .string("svc"), .account: .string("acct\($0)")], data: secret)
                        })
                    next = end
                }
                for index in 0..<lookups {
                    let query = ItemQuery.genericPassword(
                        service: "svc", account: "acct\((index * 7919) % items)", returns: .data)
                    guard try keychain.copyMatching(query).first?.data?.count == secret.count else {
                        fail("engine lookup \(index) returned the wrong value")
                    }
                }
            default:
                fail("profile-lookups takes floor or engine")
            }
        } catch {
            fail("\(error)")
        }
        exit(0)
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(1)
    }
}
