import Synchronization

/// At most `limit` of something at once, across threads: a turn is refused, never waited for.
final class ConcurrencyLimit: Sendable {
    private let limit: Int
    private let running = Atomic<Int>(0)

    init(_ limit: Int) { self.limit = limit }

    /// Takes a turn; false when `limit` are under way.
    func begin() -> Bool {
        if running.wrappingAdd(1, ordering: .acquiring).newValue <= limit { return true }
        running.wrappingSubtract(1, ordering: .releasing)
        return false
    }

    /// Gives back a turn ``begin()`` took.
    func end() { running.wrappingSubtract(1, ordering: .releasing) }
}
