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

    /// Sleeps until `instant` (a value of `now()`); returns at once if it has passed.
    static func wait(until instant: UInt64) {
        let current = now()
        if instant > current { usleep(useconds_t((instant - current) / 1_000)) }
    }
}
