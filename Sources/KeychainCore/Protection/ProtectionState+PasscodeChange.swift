import Foundation
import KeychainCrypto

/// Setting, changing and removing the passcode: the derivations made before any lock is taken, and the keybag
/// change itself, made under the keybag's lock.
extension ProtectionState {
    /// A passcode's wrapping key and the parameters it was derived with.
    struct DerivedPasscodeKey {
        let salt: [UInt8]
        let iterations: Int
        let milliseconds: Double
        let key: SecureBytes

        /// Whether this key was derived for `record` (the keybag may have changed since).
        func isFor(_ record: KeybagDocument.PasscodeRecord, salt recordSalt: Data) -> Bool {
            iterations == record.iterations && salt.elementsEqual(recordSalt)
        }
    }

    /// The derivations a passcode set, change or removal needs, made before it takes the keybag's lock and the
    /// database's write lock: each takes the tuned derivation time (80 ms by default, up to a minute), which
    /// every other writer (under keychaind's group commit, every client) would otherwise wait for.
    struct PasscodeChangeKeys {
        /// The current passcode's key, for the passcode record as it was read (nil: derived under the lock).
        var current: DerivedPasscodeKey?
        /// The new passcode's key, under a fresh salt and iterations tuned now.
        var new: DerivedPasscodeKey?
    }

    /// Derives ahead of ``setPasscode(_:current:attempter:derived:)`` what it will need. Nothing is checked here:
    /// the wrong-attempt delay and the passcode itself are checked under the lock, where a key derived for a
    /// record that changed meanwhile is not used. While `attempter` is held back, the current passcode is not
    /// derived (the change will be refused).
    func passcodeChangeKeys(new: SecureBytes?, current passcode: SecureBytes?, attempter: PasscodeAttempter) throws
        -> PasscodeChangeKeys
    {
        var keys = PasscodeChangeKeys()
        if let passcode { keys.current = try currentPasscodeKey(passcode, attempter: attempter) }
        if let new, new.count > 0 { keys.new = try newPasscodeKey(new) }
        return keys
    }

    /// The wrapping key `passcode` gives under the keybag's passcode record as it is now, derived before the
    /// keybag's lock is taken (which writers and other unlocks wait for): nil without a passcode, or while
    /// `attempter` is held back (the attempt will be refused). Nothing is checked here.
    func currentPasscodeKey(_ passcode: SecureBytes, attempter: PasscodeAttempter) throws
        -> DerivedPasscodeKey?
    {
        guard let record = try current().document.passcode, let salt = Data(base64Encoded: record.salt),
            record.backOff(of: attempter).notBefore <= clock().timeIntervalSinceReferenceDate
        else { return nil }
        return DerivedPasscodeKey(
            salt: Array(salt), iterations: record.iterations, milliseconds: record.milliseconds,
            key: try PasscodeKDF.derive(
                passcode: passcode, salt: Array(salt), iterations: record.iterations, deviceKey: deviceKey))
    }

    /// The wrapping key of a new passcode `new`, under a fresh salt and iterations tuned to the target now.
    func newPasscodeKey(_ new: SecureBytes) throws -> DerivedPasscodeKey {
        let tuned = try PasscodeKDF.tune(target: kdfTarget)
        let salt = try SystemRandom.bytes(16)
        return DerivedPasscodeKey(
            salt: salt, iterations: tuned.iterations, milliseconds: tuned.milliseconds,
            key: try PasscodeKDF.derive(passcode: new, salt: salt, iterations: tuned.iterations, deviceKey: deviceKey))
    }

    /// Sets, changes (`current` required) or, with `new` nil, removes the passcode. The keys of classes A and C
    /// but WhenPasscodeSetThisDeviceOnly are made anew (``renew(_:in:)``); the caller then reseals the items
    /// (``Keychain/renewingClassKeys(_:)``). `derived` are the passcodes' keys from ``passcodeChangeKeys(new:
    /// current:attempter:)``; what they lack, or a key for a passcode record since replaced, is derived here.
    /// - Returns: whether WhenPasscodeSetThisDeviceOnly was destroyed (its items must be purged).
    @discardableResult
    func setPasscode(
        _ new: SecureBytes?, current passcode: SecureBytes?, attempter: PasscodeAttempter = .anyone,
        derived: PasscodeChangeKeys = PasscodeChangeKeys()
    ) throws -> Bool {
        if let new, new.count == 0 { throw KeychainError.param.because("a passcode cannot be empty") }
        var destroyedClassAKPU = false
        var unlocked: [Accessibility: SecureBytes] = [:]
        try modify { document in
            var keys: [Accessibility: SecureBytes]
            if document.passcode != nil {
                guard let passcode else {
                    throw KeychainError.authFailed.because("changing the passcode needs the current one")
                }
                keys = try openProtectedKeys(
                    &document, passcode: passcode, attempter: attempter, derived: derived.current)
            } else {
                keys = [:]
                for protection in Accessibility.allCases where KeybagDocument.isPasscodeProtected(protection) {
                    guard let wrapped = document.wrapped(protection) else { continue }
                    keys[protection] = try AESKeyWrap.unwrap(wrapped, kek: deviceKey)
                }
            }
            // A removal destroys akpu (below): it is not renewed, and a damaged constraint root cannot stop it.
            if new == nil { keys[.whenPasscodeSetThisDeviceOnly] = nil }
            try Self.renew(&keys, in: &document)
            if let new {
                if keys[.whenPasscodeSetThisDeviceOnly] == nil {
                    keys[.whenPasscodeSetThisDeviceOnly] = try SystemRandom.key()
                }
                let wrapping = try derived.new ?? newPasscodeKey(new)
                for (protection, key) in keys {
                    document.setWrapped(protection, try AESKeyWrap.wrap(key, kek: wrapping.key))
                }
                document.keyChecks = try Self.checkValues(of: keys)
                document.passcode = KeybagDocument.PasscodeRecord(
                    iterations: wrapping.iterations, salt: Data(wrapping.salt).base64EncodedString(),
                    milliseconds: wrapping.milliseconds)
                unlocked = keys
            } else {
                keys[.whenPasscodeSetThisDeviceOnly] = nil
                destroyedClassAKPU = document.classes[Accessibility.whenPasscodeSetThisDeviceOnly.rawValue] != nil
                document.setWrapped(.whenPasscodeSetThisDeviceOnly, nil)
                document.setRetired(.whenPasscodeSetThisDeviceOnly, [])
                document.wrappedPasscodeConstraintRoot = nil
                document.passcodeBoundItemsToPurge = true
                for (protection, key) in keys {
                    document.setWrapped(protection, try AESKeyWrap.wrap(key, kek: deviceKey))
                }
                document.keyChecks = nil  // the keys come from the keybag itself now, never from a store
                document.passcode = nil
            }
        } then: {
            // The unlocked keys follow the keybag once it is saved (a failed save leaves the lock state as it was),
            // still under its lock: a process that finds its stored key older than the keybag waits for this.
            if unlocked.isEmpty {
                store.clear()
            } else {
                do {
                    try store.put(unlocked)
                } catch let error as KeychainError {
                    // The change is made: the old passcode no longer opens anything, and trying it would count.
                    let why = error.explanation ?? KeychainError.Reason("the key store refused them")
                    throw error.because(
                        "the new passcode is set, but the class keys could not be kept unlocked (\(why)); "
                            + "unlock with the new passcode")
                }
            }
        }
        return destroyedClassAKPU
    }
}
