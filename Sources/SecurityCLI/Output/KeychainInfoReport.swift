import Foundation
import KeychainCore

/// What `show-keychain-info` prints: macOS's first line (`Keychain "<path>" timeout=10s`), then one line per
/// setting, the last one what keeps SecureEnclave keys; or, with `--json`, the same as one JSON object whose absent
/// values are `null`.
struct KeychainInfoReport: Encodable {
    let keychain: String
    let lockState: String
    let hasPasscode: Bool
    let gracePeriodSeconds: Int
    let kdfIterations: Int?
    let kdfMilliseconds: Double?
    let failedAttempts: Int
    /// Nil when the keychain's figure is not a finite number (a damaged keybag), printed as "unknown".
    let retryAfterSeconds: Double?
    let classKeyStore: String
    /// What keeps SecureEnclave keys here, as configured (the command does not talk to the TPM).
    let secureEnclave: SecureEnclaveBacking

    init(keychainPath: String, info: KeychainInfo, secureEnclave: SecureEnclaveBacking) {
        keychain = keychainPath
        lockState = info.lockState.rawValue
        hasPasscode = info.hasPasscode
        gracePeriodSeconds = info.gracePeriod
        kdfIterations = info.kdfIterations
        kdfMilliseconds = info.kdfMilliseconds.flatMap { $0.isFinite ? ($0 * 10).rounded() / 10 : nil }
        failedAttempts = info.failedAttempts
        retryAfterSeconds = info.retryAfterSeconds.isFinite ? (info.retryAfterSeconds * 10).rounded(.up) / 10 : nil
        classKeyStore = info.classKeyStore
        self.secureEnclave = secureEnclave
    }

    private enum CodingKeys: String, CodingKey {
        case keychain, lockState, hasPasscode, gracePeriodSeconds, kdfIterations, kdfMilliseconds, failedAttempts
        case retryAfterSeconds, classKeyStore, secureEnclave, secureEnclaveDevice, secureEnclaveHardwareBacked
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
        try container.encode(secureEnclave.kind, forKey: .secureEnclave)
        try container.encode(secureEnclave.device, forKey: .secureEnclaveDevice)
        try container.encode(secureEnclave.isHardwareBacked, forKey: .secureEnclaveHardwareBacked)
    }

    /// The text form.
    var text: String {
        var lines = ["Keychain \"\(keychain)\" timeout=\(gracePeriodSeconds)s"]
        lines.append("    lock state: \(lockState)")
        lines.append("    passcode: \(hasPasscode ? "set" : "none")")
        lines.append(
            "    grace period: \(gracePeriodSeconds)s (WhenUnlocked items stay available this long after a lock)")
        if let kdfIterations {
            let cost = kdfMilliseconds.map { "\(Self.decimal($0)) ms per attempt" } ?? "cost unknown"
            lines.append("    passcode KDF: PBKDF2-HMAC-SHA-256, \(kdfIterations) iterations, " + cost)
        } else {
            lines.append("    passcode KDF: none (no passcode)")
        }
        lines.append("    failed attempts: \(failedAttempts)")
        let retry = retryAfterSeconds.map { $0 > 0 ? "\(Self.decimal($0))s" : "now" } ?? "unknown"
        lines.append("    retry after: " + retry)
        lines.append("    unlocked class keys: \(classKeyStore)")
        lines.append("    Secure Enclave: \(TerminalText.escaped(secureEnclave.description))")
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
        // Int(_:) traps beyond its range; such figures print in Double's own form.
        guard value.isFinite, value.magnitude < 1e15 else { return "\(value)" }
        return value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }
}
