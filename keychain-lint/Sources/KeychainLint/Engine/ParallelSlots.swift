import Foundation

/// Fixed slots that concurrent workers fill, one index each.
///
/// `@unchecked Sendable` is safe because every access to `values` holds `lock`.
final class ParallelSlots<Value>: @unchecked Sendable {
    private var values: [Value?]
    private let lock = NSLock()

    init(count: Int) {
        values = Array(repeating: nil, count: count)
    }

    subscript(index: Int) -> Value? {
        get { lock.withLock { values[index] } }
        set { lock.withLock { values[index] = newValue } }
    }

    var all: [Value?] { lock.withLock { values } }

    /// Runs `body` for every index on all cores and collects its results.
    static func map(_ count: Int, _ body: @Sendable (Int) -> Value) -> [Value?] {
        let slots = ParallelSlots(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { index in
            slots[index] = body(index)
        }
        return slots.all
    }
}
