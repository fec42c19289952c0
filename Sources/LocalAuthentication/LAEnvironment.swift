import Foundation
import KeychainRequests

/// Told when the user's authentication mechanisms change (iOS 17, macOS 14). Every requirement has a default that
/// does nothing, as Apple's optional one.
public protocol LAEnvironmentObserver: NSObjectProtocol {
    /// The environment's state changed; `oldState` is what it was. Called on a background queue.
    func environment(_ environment: LAEnvironment, stateDidChangeFrom oldState: LAEnvironmentState)
}

extension LAEnvironmentObserver {
    public func environment(_ environment: LAEnvironment, stateDidChangeFrom oldState: LAEnvironmentState) {}
}

/// The user's authentication mechanisms (iOS 17, macOS 14): the keychain's biometric sensor, passcode and
/// companion, read when asked. Observers are held weakly and told of changes, which the environment looks for
/// twice a second while it has observers: changes made by another process (`security biometry enroll`) have no
/// other way to reach this one.
open class LAEnvironment: NSObject, @unchecked Sendable {  // safe: `watch` is used only under `lock`
    private struct Watch {
        var observers: [WeakObserver] = []
        var last: EnvironmentSnapshot?
        var timer: (any DispatchSourceTimer)?
        /// Counts the timers started, so that a look a stopped timer began does not compare across a restart.
        var generation = 0
    }

    private struct WeakObserver {
        weak var observer: (any LAEnvironmentObserver)?
    }

    /// How often an observed environment reads its state.
    static let pollInterval: DispatchTimeInterval = .milliseconds(500)

    /// The keychain, held weakly: the registry keeps environments, and must not keep a task's keychain open.
    private let binding: WeakKeychainBinding
    private let lock = NSLock()
    private var watch = Watch()
    private let queue = DispatchQueue(label: "LAEnvironment")

    private init(binding: KeychainBinding) {
        self.binding = binding.weak
        super.init()
    }

    /// The environment of the user of this process: of the keychain the SecItem functions use now (the task's, or
    /// the process's). The same object each time for the same keychain, so observers can be removed again.
    open class var currentUser: LAEnvironment { Registry.environment(for: .current) }

    /// The mechanisms now.
    open var state: LAEnvironmentState { LAEnvironmentState(read() ?? EnvironmentSnapshot()) }

    /// Starts telling `observer` of changes; the environment holds it weakly.
    open func addObserver(_ observer: any LAEnvironmentObserver) {
        let first = read()
        lock.withLock {
            watch.observers.removeAll { $0.observer == nil || $0.observer === observer }
            watch.observers.append(WeakObserver(observer: observer))
            if watch.timer == nil {
                watch.last = first
                watch.generation += 1
                watch.timer = startTimer(generation: watch.generation)
            }
        }
    }

    /// Stops telling `observer` of changes.
    open func removeObserver(_ observer: any LAEnvironmentObserver) {
        lock.withLock {
            watch.observers.removeAll { $0.observer == nil || $0.observer === observer }
            if watch.observers.isEmpty { Self.stop(&watch) }
        }
    }

    /// The state now; nil when it cannot be read (the keychain is gone, keychaind does not answer).
    private func read() -> EnvironmentSnapshot? {
        binding.binding?.run {
            (try? ProcessKeychainService.current()).flatMap { EnvironmentSnapshot(KeychainClient(service: $0)) }
        }
    }

    private func startTimer(generation: Int) -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + Self.pollInterval, repeating: Self.pollInterval)
        timer.setEventHandler { [weak self] in self?.look(generation: generation) }
        timer.resume()
        return timer
    }

    /// One look for a change: observers still alive are told of it. A state that cannot be read is no change.
    private func look(generation: Int) {
        let now = read()
        let told: (old: EnvironmentSnapshot, observers: [any LAEnvironmentObserver])? = lock.withLock {
            guard watch.generation == generation else { return nil }
            watch.observers.removeAll { $0.observer == nil }
            guard !watch.observers.isEmpty else {
                Self.stop(&watch)
                return nil
            }
            guard let now else { return nil }
            guard let last = watch.last else {
                watch.last = now
                return nil
            }
            guard last != now else { return nil }
            watch.last = now
            return (last, watch.observers.compactMap(\.observer))
        }
        guard let told else { return }
        let old = LAEnvironmentState(told.old)
        for observer in told.observers { observer.environment(self, stateDidChangeFrom: old) }
    }

    private static func stop(_ watch: inout Watch) {
        watch.timer?.cancel()
        watch.timer = nil
        watch.last = nil
    }

    /// One environment per keychain, for as long as that keychain lives.
    private enum Registry {
        private struct Entry {
            weak var anchor: AnyObject?
            let isProcess: Bool
            let environment: LAEnvironment
        }

        private static let lock = NSLock()
        nonisolated(unsafe) private static var entries: [Entry] = []  // used only under `lock`

        static func environment(for binding: KeychainBinding) -> LAEnvironment {
            let anchor = binding.anchor
            return lock.withLock {
                entries.removeAll { !$0.isProcess && $0.anchor == nil }
                if let found = entries.first(where: { anchor == nil ? $0.isProcess : $0.anchor === anchor }) {
                    return found.environment
                }
                let made = LAEnvironment(binding: binding)
                entries.append(Entry(anchor: anchor, isProcess: anchor == nil, environment: made))
                return made
            }
        }
    }
}
