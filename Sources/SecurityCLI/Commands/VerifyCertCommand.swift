import Foundation

/// `verify-cert`: evaluates trust in a certificate chain read from files, as macOS's verb does with
/// `SecTrustEvaluateWithError`.
public struct VerifyCertCommand: Equatable, Sendable {
    /// The policies `-p` names here (macOS has more: S/MIME, code signing, …).
    public enum Policy: String, Equatable, Sendable, CaseIterable {
        case basic, ssl
    }

    /// `-c FILE`, repeated: the leaf first, then certificates that may help build the chain (PEM or DER; a
    /// PEM file may hold several).
    public var certificateFiles: [String] = []
    /// `-r FILE`, repeated: the only anchors (else the system's CA certificates).
    public var anchorFiles: [String] = []
    /// `-p`; nil when not given (basic, or ssl when a host name is given).
    public var policy: Policy?
    /// `-C`: the SSL policy for a client certificate.
    public var client = false
    /// `-s HOST` or `-n NAME`: the host name the SSL policy checks.
    public var hostName: String?
    /// `-d YYYY-MM-DD[-hh:mm:ss]` in GMT: the date of the evaluation (default: now).
    public var date: Date?
    /// `-q`: no line on success.
    public var quiet = false

    public init() {}

    /// The policy to evaluate with: `-p`, else SSL when a host name is given, else basic.
    var effectivePolicy: Policy { policy ?? (hostName == nil ? .basic : .ssl) }
}
