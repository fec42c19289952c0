import Foundation

extension Date {
    /// The date as OpenSSL's `time_t`, within the years 1 to 9999: a date outside them (or not a number) would
    /// trap in the conversion. Not a number becomes the earliest, at which no certificate is valid yet.
    var opensslTime: time_t {
        let earliest = -62_135_596_800.0  // 0001-01-01T00:00:00Z
        let latest = 253_402_300_799.0  // 9999-12-31T23:59:59Z
        let seconds = timeIntervalSince1970
        guard !seconds.isNaN else { return time_t(earliest) }
        return time_t(Swift.min(Swift.max(seconds, earliest), latest).rounded(.down))
    }
}
