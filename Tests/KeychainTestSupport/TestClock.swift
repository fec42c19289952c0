import Foundation
import Synchronization

/// A clock that tests move by hand, for grace periods, expiries and the dates items record.
package final class TestClock: Sendable {
    private let current: Mutex<Date>

    package init(_ start: Date = Date(timeIntervalSinceReferenceDate: 800_000_000)) { current = Mutex(start) }

    package var now: Date { current.withLock { $0 } }

    package func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }

    /// The clock as the `KeychainConfiguration.clock` function.
    package var function: @Sendable () -> Date { { [self] in now } }
}
