import Foundation
import KeychainCore

/// Dates as the command prints them. A date read from a keychain can be anything a restored backup held (NaN,
/// an infinity, 1e300 seconds); those print as `invalid date (nan s since 1970)`, never as a trap.
enum DateText {
    /// The calendar fields of `date` in UTC; nil when it is not a date the keychain accepts (years 0 to 9999,
    /// the engine's one rule), so that it is finite and its whole seconds cannot overflow.
    private static func parts(_ date: Date) -> tm? {
        guard AttributeValue.isValidDate(date) else { return nil }
        var whole = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard gmtime_r(&whole, &parts) != nil else { return nil }
        return parts
    }

    /// Whether `date` is one the keychain accepts (and so finite, in a four-digit year).
    static func isPrintable(_ date: Date) -> Bool { parts(date) != nil }

    /// What an unprintable date prints as.
    static func invalid(_ date: Date) -> String {
        "invalid date (\(date.timeIntervalSince1970) s since 1970)"
    }

    /// `YYYYMMDDhhmmssZ`, the form of macOS's `<timedate>` values.
    static func compact(_ date: Date) -> String {
        guard let parts = parts(date) else { return invalid(date) }
        return digits(parts.tm_year + 1900, 4) + digits(parts.tm_mon + 1) + digits(parts.tm_mday)
            + digits(parts.tm_hour) + digits(parts.tm_min) + digits(parts.tm_sec) + "Z"
    }

    /// `YYYY-MM-DDThh:mm:ssZ`, for `--json` and `doctor`.
    static func iso8601(_ date: Date) -> String {
        guard let parts = parts(date) else { return invalid(date) }
        return digits(parts.tm_year + 1900, 4) + "-" + digits(parts.tm_mon + 1) + "-" + digits(parts.tm_mday)
            + "T" + digits(parts.tm_hour) + ":" + digits(parts.tm_min) + ":" + digits(parts.tm_sec) + "Z"
    }

    private static func digits(_ value: Int32, _ width: Int = 2) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
