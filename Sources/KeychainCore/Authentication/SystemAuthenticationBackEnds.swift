import Foundation

/// The real authentication services this keychain uses or could use: device-owner authentication through PAM
/// (used when the configuration has it) and fingerprint readers through fprintd (detected and reported; biometry
/// is the simulated sensor in this version).
public struct SystemAuthenticationBackEnds: Sendable, Equatable {
    /// The device-owner authentication prompts without a script go to, if any.
    public let owner: SystemOwnerAuthentication?
    /// Whether the fprintd daemon is installed.
    public let hasFprintd: Bool

    /// The back ends of a keychain whose configuration names `owner`.
    public static func detect(owner: SystemOwnerAuthentication?) -> SystemAuthenticationBackEnds {
        let fprintd = ["/usr/libexec/fprintd", "/usr/lib/fprintd/fprintd", "/usr/sbin/fprintd"]
        return SystemAuthenticationBackEnds(
            owner: owner, hasFprintd: fprintd.contains { FileManager.default.fileExists(atPath: $0) })
    }

    /// Lines for `security biometry status`.
    public var summary: [String] {
        let owner =
            if let owner {
                "device owner: PAM service \(owner.service), asked at \(owner.terminal) by \(owner.helper.path)"
            } else {
                "device owner: scripted prompts only (no \(SystemOwnerAuthentication.helperName) found, "
                    + "or KEYCHAIN_AUTHENTICATION=simulated)"
            }
        let fingerprint = hasFprintd ? "fprintd found, not used: biometry is the simulated sensor" : "no fprintd"
        return [owner, "fingerprint reader: \(fingerprint)"]
    }
}
