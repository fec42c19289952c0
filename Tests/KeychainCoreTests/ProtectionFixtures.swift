import Foundation
import KeychainTestSupport

@testable import KeychainCore

/// The passcode the data protection tests set.
let testPasscode = Secret(Array("1234".utf8))

/// The access group of the data protection tests' keychains (and of their child processes).
let protectionTestGroup = "T.app"

/// A keychain whose passcode derivation is tuned to 2 ms instead of 80, so tests that set passcodes stay fast;
/// `adjust` sets whatever else a test needs of its configuration.
func fastKDFKeychain(
    home: URL = temporaryHome(), _ adjust: (inout KeychainConfiguration) -> Void = { _ in }
) throws -> Keychain {
    var configuration = KeychainConfiguration(
        home: home,
        identity: CallerIdentity(applicationIdentifier: protectionTestGroup, accessGroups: [protectionTestGroup]))
    configuration.passcodeDerivationTarget = 0.002
    // Reseals and format upgrades in batches of two rows, so that the tests' few items cross batches.
    configuration.resealBatchRows = 2
    adjust(&configuration)
    return try Keychain(configuration: configuration)
}

/// Whether unlocked class keys live in the kernel keyring here (else the lock state is per process).
let kernelKeyringIsAvailable: Bool = {
    let home = temporaryHome()
    defer { try? FileManager.default.removeItem(at: home) }
    return (try? fastKDFKeychain(home: home).info().classKeyStore) == "kernel keyring"
}()

extension Keychain {
    /// Adds a generic password whose account and secret are both `account`.
    func addToken(_ account: String, _ protection: Accessibility) throws {
        try add(
            NewItem(
                itemClass: .genericPassword, attributes: [.account: .string(account)],
                accessibility: protection, data: Array(account.utf8)))
    }

    /// The status of reading the secret of the generic password `account`.
    func readStatus(_ account: String) -> Int32 {
        status { _ = try copyMatching(accountQuery(account, returns: .data)) }
    }

    /// The secret of the generic password `account` as text, or nil when it cannot be read.
    func secretText(_ account: String) -> String? {
        let results = try? copyMatching(accountQuery(account, returns: .data))
        return results?.first?.data.map { String(decoding: $0.bytes, as: UTF8.self) }
    }
}

/// A query for the generic password `account` (limit `.all`, as update and delete need).
func accountQuery(_ account: String, returns: ReturnOptions = []) -> ItemQuery {
    ItemQuery(
        itemClass: .genericPassword, attributes: [.account: .string(account)],
        limit: returns.isEmpty ? .all : .one, returns: returns)
}

/// The status `body` ends with: 0 when it succeeds, the keychain's status when it throws a ``KeychainError``, and
/// -1 for any other error (which no keychain call should throw).
func keychainStatus(_ body: () throws -> Void) -> Int32 {
    do {
        try body()
        return 0
    } catch let error as KeychainError {
        return error.status
    } catch {
        return -1
    }
}

/// Rewrites the keybag file of `home` as someone who can write the home would: `change` gets its JSON.
func editKeybag(in home: URL, _ change: (inout [String: Any]) throws -> Void) throws {
    let keybag = home.appendingPathComponent("keybag")
    guard var document = try JSONSerialization.jsonObject(with: Data(contentsOf: keybag)) as? [String: Any] else {
        throw CocoaError(.fileReadCorruptFile)
    }
    try change(&document)
    try JSONSerialization.data(withJSONObject: document).write(to: keybag)
}
