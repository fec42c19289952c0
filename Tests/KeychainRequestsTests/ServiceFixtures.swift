import Foundation
import KeychainCore
import KeychainRequests
import Testing

/// A fresh keychain in its own temporary home, served in process; removed when the test ends.
func withService<R>(
    groups: [String] = ["TEAM1.com.example.app"], prompter: (any UserPrompter)? = nil,
    _ body: (InProcessKeychainService) throws -> R
) throws -> R {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("requests-test-\(UUID().uuidString)")
    var configuration = KeychainConfiguration(
        home: home, identity: CallerIdentity(applicationIdentifier: groups.first, accessGroups: groups))
    configuration.passcodeDerivationTarget = 0.002
    configuration.userPrompter = prompter
    let keychain = try Keychain(configuration: configuration)
    defer {
        keychain.simulateRestart()
        keychain.close()
        try? FileManager.default.removeItem(at: home)
    }
    return try body(InProcessKeychainService(keychain))
}

/// A caller of its own, whose one group is `group`.
func caller(_ group: String, context: AuthenticationContextID? = nil) -> Caller {
    Caller(
        identity: CallerIdentity(applicationIdentifier: group, accessGroups: [group]), authenticationContext: context)
}

func password(_ account: String, _ secret: String = "s3cret") -> NewItem {
    NewItem(
        itemClass: .genericPassword, attributes: [.service: .string("svc"), .account: .string(account)],
        data: Array(secret.utf8))
}

func query(_ account: String, returns: ReturnOptions = [], limit: MatchLimit = .one) -> ItemQuery {
    ItemQuery(
        itemClass: .genericPassword, attributes: [.service: .string("svc"), .account: .string(account)],
        limit: limit, returns: returns)
}
