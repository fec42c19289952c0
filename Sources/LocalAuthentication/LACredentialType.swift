/// The kind of credential `LAContext.setCredential(_:type:)` sets.
public enum LACredentialType: Int, Sendable {
    /// The password items protected with `.applicationPassword` need.
    case applicationPassword = 0
}
