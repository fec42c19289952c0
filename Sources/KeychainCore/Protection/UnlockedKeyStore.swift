import Foundation
import KernelKeyring
import KeychainCrypto
import Synchronization

/// Where the unwrapped keys of classes A and C live while a passcode-protected keychain is unlocked. The store
/// is what makes the lock state device-wide: every process reads the keys from it on every operation, and none
/// keeps them, so a lock takes effect everywhere at once.
protocol UnlockedKeyStore: Sendable {
    /// A short name for `show-keychain-info`.
    var name: String { get }
    /// Makes `keys` available (an unlock), with no expiry.
    func put(_ keys: [Accessibility: SecureBytes]) throws
    /// The unwrapped key of `protection`, or nil when it is not available.
    func get(_ protection: Accessibility) throws -> SecureBytes?
    /// Records a lock: class A keys expire after `seconds` (0: at once).
    func lock(classAExpiresAfter seconds: Int) throws
    /// Whether a lock was recorded since the last unlock.
    var isLocked: Bool { get }
    /// Forgets everything, as a restart does.
    func clear()
}

/// Class keys in the kernel's user keyring, named after the keychain, so that all processes of the user share
/// one lock state and a restart of the machine clears it (the kernel keeps keyrings in memory only).
final class KeyringKeyStore: UnlockedKeyStore {
    private let keyring = KernelKeyring()
    private let prefix: String
    let name = "kernel keyring"
    // Serial numbers are not secrets; remembering them saves a keyring search on every read.
    private let serials = Mutex<[Accessibility: Int32]>([:])

    /// - Parameter namespace: distinguishes this keychain home from others of the same user.
    init(namespace: String) {
        prefix = "keychain.\(namespace)."
    }

    private func description(_ protection: Accessibility) -> String { prefix + protection.rawValue }
    private var lockMarker: String { prefix + "locked" }

    func put(_ keys: [Accessibility: SecureBytes]) throws {
        do {
            for (protection, key) in keys {
                try key.withUnsafeBytes { try keyring.store(description(protection), payload: $0) }
            }
            keyring.remove(lockMarker)
        } catch {
            throw KeychainError.notAvailable.because("the kernel keyring refused the class keys: \(error)")
        }
    }

    func get(_ protection: Accessibility) throws -> SecureBytes? {
        if let serial = serials.withLock({ $0[protection] }), let key = read(serial) { return key }
        // Never read, or the remembered key expired or was invalidated: search once more.
        serials.withLock { $0[protection] = nil }
        guard let serial = keyring.serial(of: description(protection)), let key = read(serial) else { return nil }
        serials.withLock { $0[protection] = serial }
        return key
    }

    private func read(_ serial: Int32) -> SecureBytes? {
        try? SecureBytes(count: 32) { buffer in
            guard keyring.read(serial: serial, into: buffer) == 32 else { throw KeychainError.itemNotFound }
        }
    }

    func lock(classAExpiresAfter seconds: Int) throws {
        do {
            try [UInt8(1)].withUnsafeBytes { try keyring.store(lockMarker, payload: $0) }
            for protection in Accessibility.classA { try keyring.expire(description(protection), after: seconds) }
        } catch {
            throw KeychainError.notAvailable.because("the kernel keyring refused the lock: \(error)")
        }
    }

    var isLocked: Bool { keyring.contains(lockMarker) }

    func clear() {
        for protection in Accessibility.allCases { keyring.remove(description(protection)) }
        keyring.remove(lockMarker)
    }
}

/// The fallback where the kernel offers no keyring (some containers filter the calls): the same behaviour
/// within one process, but other processes do not see it. `show-keychain-info` says which store is in use.
final class ProcessKeyStore: UnlockedKeyStore {
    private struct State {
        var keys: [Accessibility: SecureBytes] = [:]
        var expiry: [Accessibility: Date] = [:]
        var locked = false
    }
    private let state = Mutex(State())
    let name = "process memory (no kernel keyring: lock state is not shared between processes)"

    func put(_ keys: [Accessibility: SecureBytes]) throws {
        state.withLock {
            $0.keys.merge(keys) { $1 }
            $0.expiry = [:]
            $0.locked = false
        }
    }

    func get(_ protection: Accessibility) throws -> SecureBytes? {
        state.withLock { state in
            if let deadline = state.expiry[protection], deadline <= Date() {
                state.keys[protection] = nil
                state.expiry[protection] = nil
            }
            return state.keys[protection]
        }
    }

    func lock(classAExpiresAfter seconds: Int) throws {
        state.withLock { state in
            state.locked = true
            for protection in Accessibility.classA {
                if seconds <= 0 { state.keys[protection] = nil } else {
                    state.expiry[protection] = Date().addingTimeInterval(Double(seconds))
                }
            }
        }
    }

    var isLocked: Bool { state.withLock { $0.locked } }

    func clear() { state.withLock { $0 = State() } }
}

extension Accessibility {
    /// Class A: available only while unlocked.
    static let classA: [Accessibility] = [.whenUnlocked, .whenUnlockedThisDeviceOnly, .whenPasscodeSetThisDeviceOnly]
}
