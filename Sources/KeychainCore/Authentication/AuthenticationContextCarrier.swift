/// An object that carries an ``AuthenticationContext``: LocalAuthentication's `LAContext`, which the Security
/// face receives as `kSecUseAuthenticationContext` without depending on LocalAuthentication.
package protocol AuthenticationContextCarrier: AnyObject {
    /// The engine's context behind the object.
    var authenticationContext: AuthenticationContext { get }
}
