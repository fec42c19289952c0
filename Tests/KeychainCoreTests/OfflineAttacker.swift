import Foundation
import KeychainCrypto
import KeychainStore

@testable import KeychainCore

/// Someone who has copied every file of a keychain home, but not the passcode, and decodes it with the project's
/// own code: the device key, the keybag's class keys that the device key alone unwraps, the biometry and
/// companion secrets (which are bound only to the device key), and any application password they guess.
struct OfflineAttacker {
    let keychain: Keychain
    /// Application passwords the attacker tries (a test may hand over the right one).
    var guessedApplicationPasswords: [String] = []

    /// Opens a copy of `home` as a machine just restarted: no class key is held unlocked anywhere.
    init(copyOf home: URL) throws {
        let copy = temporaryHome()
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        // The write-ahead log holds the latest writes; the shared-memory index is rebuilt from it.
        for name in try FileManager.default.contentsOfDirectory(atPath: home.path) where !name.hasSuffix("-shm") {
            try FileManager.default.copyItem(
                at: home.appendingPathComponent(name),
                to: copy.appendingPathComponent(name))
        }
        keychain = try fastKDFKeychain(home: copy)
    }

    /// The accounts of the generic passwords whose secret key (or whole secret) the attacker obtains.
    func openedAccounts() throws -> Set<String> {
        var opened: Set<String> = []
        let schema = try keychain.schema(.genericPassword)
        let rows = try keychain.withStore { store in
            try store.select(from: "genp", where: RowFilter(), reading: [.metadata, .secret])
        }
        for row in rows {
            guard let protection = Accessibility(rawValue: row.protection) else { continue }
            let sealer = keychain.sealer(for: row, schema: schema, protection: protection)
            if let account = try attack(row, sealer: sealer) { opened.insert(account) }
        }
        return opened
    }

    /// Every class key the files alone give.
    private var classKeys: [AESKeyWrapper] {
        Accessibility.allCases.compactMap { try? keychain.dataProtection.classKey($0) }
    }

    /// The account of `row` if the attacker reaches its secret; nil otherwise.
    private func attack(_ row: StoredRow, sealer: ItemSealer) throws -> String? {
        let itemKey = classKeys.lazy.compactMap { try? sealer.itemKey(wrapped: row.wrappedKey, classKey: $0) }.first
        if let itemKey {
            let attributes = try sealer.openAttributes(row.metadata, itemKey: itemKey)
            guard case .string(let account)? = attributes[.account] else { return nil }
            if (try? sealer.openSecret(row.secret, itemKey: itemKey)) != nil { return account }
            let envelopeColumn =
                (try? keychain.constrainedEnvelopeColumn(
                    row.secret, sealer: sealer,
                    itemKey: itemKey)) ?? row.secret
            return try opensEnvelope(envelopeColumn) ? account : nil
        }
        // No class key: only an envelope stored in the clear could still give the secret's key away. The account
        // is unknown without the item key, so the row is named by the secret the test stored ("secret-<account>").
        guard try opensEnvelope(row.secret) else { return nil }
        return "row \(row.rowid)"
    }

    /// Whether any alternative of an envelope unwraps with keys derived from the files and guesses.
    private func opensEnvelope(_ column: [UInt8]) throws -> Bool {
        guard let (envelope, _) = try? ConstraintEnvelope.unframing(column) else { return false }
        let sensor = try keychain.authenticators.biometry.keys()
        for alternative in envelope.alternatives {
            for password in guessedApplicationPasswords + [""] {
                var material: [UInt8] = []
                var complete = true
                for factor in alternative.factors {
                    let key: SecureBytes?
                    switch factor {
                    case .biometryAny: key = sensor.anyKey
                    case .biometryCurrentSet: key = sensor.currentSetKey
                    case .companion: key = try? keychain.authenticators.companion.key()
                    case .devicePasscode: key = try? keychain.dataProtection.passcodeConstraintKey()
                    case .applicationPassword:
                        key = try? KeyDerivation.pbkdf2SHA256(
                            password: SecureBytes(Array(password.utf8)), salt: Array(alternative.salt),
                            iterations: alternative.iterations)
                    }
                    guard let key else {
                        complete = false
                        break
                    }
                    key.withUnsafeBytes { material += $0 }
                }
                guard complete else { continue }
                let info =
                    Array(KeyHierarchy.constraintAlternativePrefix.utf8)
                    + Array(alternative.factors.map(\.rawValue).joined(separator: ",").utf8)
                guard
                    let kek = try? KeyDerivation.hkdfSHA256(
                        key: SecureBytes(material), salt: Array(alternative.salt), info: info)
                else { continue }
                if (try? AESKeyWrap.unwrap(Array(alternative.wrapped), kek: kek)) != nil { return true }
            }
        }
        return false
    }
}
