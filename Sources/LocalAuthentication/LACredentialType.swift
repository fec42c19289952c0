/// The kind of credential `LAContext.setCredential(_:type:)` sets.
public enum LACredentialType: Int, Sendable {
    /// The password items protected with `.applicationPassword` need.
    case applicationPassword = 0
    /// A smart card's PIN (macOS): there are no smart cards here, so it is never set.
    case smartCardPIN = -3
}
