import Dispatch
import Foundation
import KeychainCrypto
import Synchronization

/// The fallback where the kernel offers no keyring (some containers filter the calls), and keychaind's store: the
/// same behaviour within one process, but other processes do not see it. `show-keychain-info` says which store is
/// in use. Each key lives in locked pages of its own (``LockedKeyMemory``: out of swap and core dumps, wiped when
/// it goes, on `clear()` and when the store goes); callers get short-lived copies. Class A keys go when the grace
/// period ends, whether or not anything asks for them then: a timer wipes them at the deadline.
final class ProcessKeyStore: UnlockedKeyStore {
    private struct State {
        var keys: [Accessibility: LockedKeyMemory] = [:]
        var expiry: [Accessibility: Date] = [:]
        var locked = false
        /// Fires at the earliest deadline in `expiry`; nil while none is set.
        var wipeTimer: (any DispatchSourceTimer)?

        /// Drops (and so wipes) the keys whose deadline has passed.
        mutating func dropExpired(now: Date = Date()) {
            for (protection, deadline) in expiry where deadline <= now {
                keys[protection] = nil
                expiry[protection] = nil
            }
        }
    }
    private let state = Mutex(State())
    let name = "process memory (no kernel keyring: lock state is not shared between processes)"

    deinit { state.withLock { $0.wipeTimer?.cancel() } }

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
            rearm(&$0)
        }
    }

    func get(_ protection: Accessibility) throws -> SecureBytes? {
        state.withLock { state in
            // The timer may run late (a busy machine): a key past its deadline is never handed out.
            state.dropExpired()
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
            rearm(&state)
        }
    }

    var isLocked: Bool { state.withLock { $0.locked } }

    var holdsAnything: Bool { state.withLock { !$0.keys.isEmpty || $0.locked } }

    /// The classes whose keys are in memory now, as they are: no expiry is applied on the way (tests check that
    /// none outlives its deadline).
    var heldClasses: Set<Accessibility> { state.withLock { Set($0.keys.keys) } }

    func clear() {
        state.withLock {
            $0.wipeTimer?.cancel()
            $0 = State()
        }
    }

    // MARK: - Wiping at the deadline

    /// Replaces the timer with one for the earliest deadline left, or none. Any timer may call this: one
    /// cancelled while its handler was already running only re-arms for what is left.
    private func rearm(_ state: inout State) {
        state.wipeTimer?.cancel()
        state.wipeTimer = state.expiry.values.min().map(startWipeTimer(at:))
    }

    /// A one-shot timer on the wall clock, as the deadlines are: a clock set forward brings it forward too, and
    /// one set back makes the handler find the deadline not yet reached and re-arm.
    private func startWipeTimer(at deadline: Date) -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        timer.schedule(wallDeadline: .now() + max(deadline.timeIntervalSinceNow, 0))
        timer.setEventHandler { [weak self] in self?.wipeExpired() }
        timer.resume()
        return timer
    }

    private func wipeExpired() {
        state.withLock { state in
            state.dropExpired()
            rearm(&state)
        }
    }
}
