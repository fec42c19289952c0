import Foundation
import KeychainCore

/// What `show-keychain-info` prints: macOS's first line (`Keychain "<path>" timeout=10s`), then one line per
/// setting; or, with `--json`, the same as one JSON object whose absent values are `null`.
struct KeychainInfoReport: Encodable {
    let keychain: String
    let lockState: String
    let hasPasscode: Bool
    let gracePeriodSeconds: Int
    let kdfIterations: Int?
    let kdfMilliseconds: Double?
    let failedAttempts: Int
    let retryAfterSeconds: Double
    let classKeyStore: String

    init(keychainPath: String, info: KeychainInfo) {
        keychain = keychainPath
        lockState = info.lockState.rawValue
        hasPasscode = info.hasPasscode
        gracePeriodSeconds = info.gracePeriod
        kdfIterations = info.kdfIterations
        kdfMilliseconds = info.kdfMilliseconds.map { ($0 * 10).rounded() / 10 }
        failedAttempts = info.failedAttempts
        retryAfterSeconds = (info.retryAfterSeconds * 10).rounded(.up) / 10
        classKeyStore = info.classKeyStore
    }

    private enum CodingKeys: String, CodingKey {
        case keychain, lockState, hasPasscode, gracePeriodSeconds, kdfIterations, kdfMilliseconds, failedAttempts
        case retryAfterSeconds, classKeyStore
    }

    /// Writes every key, `null` for the KDF values when no passcode is set, so scripts see a fixed shape.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(keychain, forKey: .keychain)
        try container.encode(lockState, forKey: .lockState)
        try container.encode(hasPasscode, forKey: .hasPasscode)
        try container.encode(gracePeriodSeconds, forKey: .gracePeriodSeconds)
        try container.encode(kdfIterations, forKey: .kdfIterations)
        try container.encode(kdfMilliseconds, forKey: .kdfMilliseconds)
        try container.encode(failedAttempts, forKey: .failedAttempts)
        try container.encode(retryAfterSeconds, forKey: .retryAfterSeconds)
        try container.encode(classKeyStore, forKey: .classKeyStore)
    }

    /// The text form.
    var text: String {
        var lines = ["Keychain \"\(keychain)\" timeout=\(gracePeriodSeconds)s"]
        lines.append("    lock state: \(lockState)")
        lines.append("    passcode: \(hasPasscode ? "set" : "none")")
        lines.append(
            "    grace period: \(gracePeriodSeconds)s (WhenUnlocked items stay available this long after a lock)")
        if let kdfIterations, let kdfMilliseconds {
            lines.append(
                "    passcode KDF: PBKDF2-HMAC-SHA-256, \(kdfIterations) iterations, "
                    + "\(Self.decimal(kdfMilliseconds)) ms per attempt")
        } else {
            lines.append("    passcode KDF: none (no passcode)")
        }
        lines.append("    failed attempts: \(failedAttempts)")
        lines.append("    retry after: " + (retryAfterSeconds > 0 ? "\(Self.decimal(retryAfterSeconds))s" : "now"))
        lines.append("    unlocked class keys: \(classKeyStore)")
        return lines.joined(separator: "\n")
    }

    /// One JSON object with sorted keys.
    func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding strings, numbers and booleans cannot fail.
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return TerminalText.jsonEscaped(String(decoding: data, as: UTF8.self))
    }

    /// A number with at most one decimal, without a trailing ".0".
    private static func decimal(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }
}
