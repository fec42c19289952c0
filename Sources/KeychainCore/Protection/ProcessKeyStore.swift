import Foundation
import KeychainCrypto
import Synchronization

/// The fallback where the kernel offers no keyring (some containers filter the calls): the same behaviour
/// within one process, but other processes do not see it. `show-keychain-info` says which store is in use.
/// Each key lives in locked pages of its own (``LockedKeyMemory``: out of swap and core dumps, wiped when the
/// class locks, on `clear()` and when the store goes); callers get short-lived copies.
final class ProcessKeyStore: UnlockedKeyStore {
    private struct State {
        var keys: [Accessibility: LockedKeyMemory] = [:]
        var expiry: [Accessibility: Date] = [:]
        var locked = false
    }
    private let state = Mutex(State())
    let name = "process memory (no kernel keyring: lock state is not shared between processes)"

    func put(_ keys: [Accessibility: SecureBytes]) throws {
        var locked: [Accessibility: LockedKeyMemory] = [:]
        for (protection, key) in keys {
            guard let memory = LockedKeyMemory(key) else {
                throw KeychainError.notAvailable.because("no memory can be mapped for the class keys")
            }
            locked[protection] = memory
        }
        state.withLock {
            $0.keys.merge(locked) { $1 }
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
            return state.keys[protection]?.key
        }
    }

    /// A lock while locked takes the earlier of the two deadlines: it never extends the grace period, but a
    /// period set shorter since the first lock ends it sooner.
    func lock(classAExpiresAfter seconds: Int) throws {
        state.withLock { state in
            let deadline = Date().addingTimeInterval(Double(max(seconds, 0)))
            for protection in Accessibility.classA {
                if seconds <= 0 {
                    state.keys[protection] = nil
                    state.expiry[protection] = nil
                } else if state.keys[protection] != nil {
                    // Unlocked keys have no expiry; a locked one keeps its own if that comes first.
                    let current = state.locked ? state.expiry[protection] ?? deadline : deadline
                    state.expiry[protection] = min(current, deadline)
                }
            }
            state.locked = true
        }
    }

    var isLocked: Bool { state.withLock { $0.locked } }

    var holdsAnything: Bool { state.withLock { !$0.keys.isEmpty || $0.locked } }

    func clear() { state.withLock { $0 = State() } }
}
