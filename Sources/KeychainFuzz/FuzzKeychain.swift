import Foundation
import KeychainCore

/// The keychain the targets that need one share: a fresh home in the fuzz work directory, holding a few items,
/// opened once per process. `scripts/fuzz.sh` points `KEYCHAIN_FUZZ_WORK` at a directory it removes afterwards.
enum FuzzKeychain {
    static let group = "TEAMFUZZ.fuzz"
    static let otherGroup = "TEAMFUZZ.other"

    /// A new, empty directory for this process under the work directory.
    static func makeDirectory(_ name: String) -> URL {
        let environment = ProcessInfo.processInfo.environment
        let work = environment["KEYCHAIN_FUZZ_WORK"] ?? NSTemporaryDirectory()
        let url = URL(fileURLWithPath: work, isDirectory: true)
            .appendingPathComponent("keychain-fuzz-\(getpid())-\(name)", isDirectory: true)
        try? FileManager.default.removeItem(at: url)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            fatalError("cannot create the fuzz directory \(url.path): \(error)")
        }
        return url
    }

    static func configuration(home: URL) -> KeychainConfiguration {
        var configuration = KeychainConfiguration(
            home: home,
            identity: CallerIdentity(applicationIdentifier: group, accessGroups: [group, otherGroup]))
        configuration.passcodeDerivationTarget = 0.001
        return configuration
    }

    /// The shared keychain, with its seed items.
    static let shared: Keychain = {
        let keychain = open(makeDirectory("shared"))
        seed(keychain)
        return keychain
    }()

    static func open(_ home: URL) -> Keychain {
        do {
            return try Keychain(configuration: configuration(home: home))
        } catch {
            fatalError("cannot open the fuzz keychain: \(error)")
        }
    }

    /// Items every search can find: a generic and an internet password, in two classes and two groups.
    static func seed(_ keychain: Keychain) {
        let items = [
            NewItem(
                itemClass: .genericPassword,
                attributes: [.service: .string("seed"), .account: .string("alice"), .label: .string("Seed")],
                data: Array("secret-one".utf8)),
            NewItem(
                itemClass: .internetPassword,
                attributes: [.server: .string("example.com"), .account: .string("bob"), .port: .number(443)],
                accessGroup: otherGroup, accessibility: .afterFirstUnlock, data: Array("secret-two".utf8)),
        ]
        for item in items {
            do {
                try keychain.add(item)
            } catch let error as KeychainError where error.status == SecurityStatus.duplicateItem {
                continue  // a change the reset could not undo left it in place
            } catch {
                fatalError("cannot seed the fuzz keychain: \(error)")
            }
        }
    }
}
