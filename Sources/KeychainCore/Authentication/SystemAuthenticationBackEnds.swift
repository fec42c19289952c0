import Foundation

/// The real authentication services of this machine: fingerprint readers through fprintd, device-owner
/// authentication through PAM. Detected at run time and reported as they are; this version does not use
/// them yet, so availability never depends on them (the simulated authenticators answer instead).
public struct SystemAuthenticationBackEnds: Sendable, Equatable {
    /// Whether the fprintd daemon is installed.
    public let hasFprintd: Bool
    /// Whether PAM's library is installed.
    public let hasPAM: Bool

    /// Looks for the services in their Debian locations.
    public static func detect() -> SystemAuthenticationBackEnds {
        let manager = FileManager.default
        let fprintd = ["/usr/libexec/fprintd", "/usr/lib/fprintd/fprintd", "/usr/sbin/fprintd"]
        let pam = ["/lib/x86_64-linux-gnu/libpam.so.0", "/usr/lib/x86_64-linux-gnu/libpam.so.0",
                   "/lib/aarch64-linux-gnu/libpam.so.0", "/usr/lib/aarch64-linux-gnu/libpam.so.0"]
        return SystemAuthenticationBackEnds(
            hasFprintd: fprintd.contains { manager.fileExists(atPath: $0) },
            hasPAM: pam.contains { manager.fileExists(atPath: $0) })
    }

    /// One line for `security biometry status`.
    public var summary: String {
        let fingerprint = hasFprintd ? "fprintd found (not used yet)" : "no fprintd"
        let owner = hasPAM ? "PAM found (not used yet)" : "no PAM"
        return "system back ends: \(fingerprint); \(owner); using the simulated sensor"
    }
}
