import Foundation
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
    /// Records a lock: class A keys expire after `seconds` (0: at once). Fails closed: the keys go (or get
    /// their expiry) before the lock is recorded. Locking again takes the earlier of the recorded deadline and
    /// `seconds` from now: it never extends the grace period, but may shorten it.
    func lock(classAExpiresAfter seconds: Int) throws
    /// Whether a lock was recorded since the last unlock.
    var isLocked: Bool { get }
    /// Whether the store holds anything for the home (keys or a recorded lock).
    var holdsAnything: Bool { get }
    /// Forgets everything, as a restart does.
    func clear()
}
