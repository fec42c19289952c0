import KeychainCore

/// One administrator's rule: which processes it names, and the entitlements they get. Every selector a rule has
/// must match (a unit and an executable, for instance, name that program run as that service).
package struct PolicyRule: Sendable, Equatable {
    /// A unit of the system service manager (`api.service`).
    package var unit: String?
    /// A Flatpak application id (`org.example.App`).
    package var flatpakAppID: String?
    /// A snap's name (its processes carry AppArmor labels `snap.NAME.*`).
    package var snap: String?
    /// An exact LSM label, without its mode (`snap.app.cmd`, or any AppArmor profile).
    package var securityLabel: String?
    /// An executable's path as `/proc/<pid>/exe` reports it.
    package var executablePath: String?
    /// The SHA-256 of the executable's bytes (with ``executablePath``). Without it the path alone is trusted only
    /// when the file and every directory above it are owned by the policy's owner and writable by no one else.
    package var executableSHA256: [UInt8]?
    /// What a matching process is: its application identifier and access groups.
    package var identity: CallerIdentity
    /// The file the rule came from, for the log and `security apps`.
    package var source: String

    package init(
        unit: String? = nil, flatpakAppID: String? = nil, snap: String? = nil, securityLabel: String? = nil,
        executablePath: String? = nil, executableSHA256: [UInt8]? = nil, identity: CallerIdentity, source: String
    ) {
        self.unit = unit
        self.flatpakAppID = flatpakAppID
        self.snap = snap
        self.securityLabel = securityLabel
        self.executablePath = executablePath
        self.executableSHA256 = executableSHA256
        self.identity = identity
        self.source = source
    }

    /// Whether the rule names something (a rule without a selector would match everyone).
    package var hasSelector: Bool {
        unit != nil || flatpakAppID != nil || snap != nil || securityLabel != nil || executablePath != nil
    }

    /// Whether the rule names an executable (by path, or path and hash).
    var namesExecutable: Bool { executablePath != nil || executableSHA256 != nil }

    /// Whether every selector other than a hashless path matches `peer`; the trust of a path alone is the
    /// resolver's to check, since it looks at the file system.
    func matchesSelectors(of peer: PeerIdentity) -> Bool {
        if let unit, peer.systemdUnit != unit { return false }
        if let flatpakAppID, peer.flatpakAppID != flatpakAppID { return false }
        if let snap, peer.snapName != snap { return false }
        if let securityLabel, peer.securityLabel.map(Self.withoutMode) != securityLabel { return false }
        if let executablePath, peer.executablePath != executablePath { return false }
        if let executableSHA256, peer.executableSHA256 != executableSHA256 { return false }
        return true
    }

    /// `snap.app.cmd (enforce)` → `snap.app.cmd`.
    static func withoutMode(_ label: String) -> String {
        guard label.hasSuffix(")"), let open = label.lastIndex(of: "(") else { return label }
        return String(label[..<open]).trimming(" ")
    }
}
