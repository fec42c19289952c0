import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// CLOCK_MONOTONIC in nanoseconds: one clock for every process of the machine, so the driver can give its client
/// processes a common start instant and add up their intervals.
enum MonotonicClock {
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Sleeps until `instant` (a value of `now()`); returns at once if it has passed. Sleeps a second at a time,
    /// so an instant far ahead (a wall-clock value given by mistake) waits, not traps.
    static func wait(until instant: UInt64) {
        while case let current = now(), instant > current {
            usleep(useconds_t(min((instant - current) / 1_000, 1_000_000)))
        }
    }

    /// Whether `instant` is a plausible start: no more than an hour ahead of now.
    static func isNear(_ instant: UInt64) -> Bool { instant <= now() + 3_600_000_000_000 }
}
