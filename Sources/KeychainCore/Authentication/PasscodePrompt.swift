import KeychainCrypto
import Synchronization

/// The simulated user at a device-passcode prompt: entries queued by a test or a demo, consumed in order.
/// Held in memory by one open keychain only (a passcode is never written to a script file).
public final class PasscodePrompt: Sendable {
    /// One reaction at the prompt.
    package enum Entry: Sendable {
        /// The user types `passcode`.
        case enter(SecureBytesBox)
        /// The user taps Cancel.
        case cancel
    }

    private let entries = Mutex<[Entry]>([])

    init() {}

    /// Queues the user typing `passcode` at the next prompt.
    public func enter(_ passcode: String) {
        entries.withLock { $0.append(.enter(SecureBytesBox(Array(passcode.utf8)))) }
    }

    /// Queues the user canceling the next prompt.
    public func cancel() {
        entries.withLock { $0.append(.cancel) }
    }

    /// The next scripted reaction; nil when none is queued.
    func next() -> Entry? {
        entries.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }
}
