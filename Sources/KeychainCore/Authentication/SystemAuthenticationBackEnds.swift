import Foundation

/// The real authentication services this keychain uses or could use: device-owner authentication through PAM
/// and fingerprint readers through fprintd, each used when the configuration has it.
package struct SystemAuthenticationBackEnds: Sendable, Equatable {
    /// Who answers the device-passcode prompts without a script.
    let unscripted: UnscriptedPasscodeAnswer
    /// The fingerprint reader in use instead of the simulated sensor, if any.
    package let fingerprintReader: SystemFingerprintReader?
    /// Whether the fprintd daemon is installed.
    package let hasFprintd: Bool

    /// The back ends of a keychain whose configuration is `configuration`.
    package static func detect(_ configuration: KeychainConfiguration) -> SystemAuthenticationBackEnds {
        SystemAuthenticationBackEnds(
            unscripted: UnscriptedPasscodeAnswer(configuration), fingerprintReader: configuration.fingerprintReader,
            hasFprintd: fprintdIsInstalled)
    }

    /// Whether the fprintd daemon is installed (its Debian locations).
    static var fprintdIsInstalled: Bool {
        ["/usr/libexec/fprintd", "/usr/lib/fprintd/fprintd", "/usr/sbin/fprintd"].contains {
            FileManager.default.fileExists(atPath: $0)
        }
    }

    /// Lines for `security biometry status`.
    package var summary: [String] {
        let owner =
            switch unscripted {
            case .system(let owner):
                "device owner: PAM service \(owner.service), asked at \(owner.terminal) by \(owner.helper.path)"
            case .cannotBeShown:
                "device owner: nobody can be asked (no \(SystemHelper.name) in KEYCHAIN_AUTHENTICATE, beside the "
                    + "executable or on PATH): unscripted prompts answer errSecInteractionNotAllowed"
            case .dismissed:
                "device owner: scripted prompts only (KEYCHAIN_AUTHENTICATION=simulated, or a keychain set up "
                    + "by hand)"
            }
        let fingerprint =
            if let fingerprintReader {
                "fprintd on the \(fingerprintReader.bus.map { "bus \($0)" } ?? "system bus"), in place of the "
                    + "simulated sensor"
            } else if hasFprintd {
                "fprintd found, not used (no \(SystemHelper.name), or KEYCHAIN_AUTHENTICATION=simulated)"
            } else {
                "no fprintd; biometry is the simulated sensor"
            }
        return [owner, "fingerprint reader: \(fingerprint)"]
    }
}
