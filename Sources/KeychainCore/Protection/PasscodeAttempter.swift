/// Whose count a passcode attempt goes to. The back-off after wrong passcodes holds back the attempts of the same
/// count only: any app of the user may feed wrong passcodes to keychaind, and so must not lock the owner out.
public enum PasscodeAttempter: Sendable, Equatable {
    /// Any process or app: one count for all of them (splitting it per caller would multiply the guesses).
    case anyone
    /// A caller the system authenticated as the keychain's owner (keychaind's owner rights).
    case owner
}
