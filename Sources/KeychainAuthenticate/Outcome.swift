/// How an authentication ended: the helper's exit status, read back by the keychain.
enum Outcome: Int32 {
    case authenticated = 0
    case notAuthenticated = 1
    case canceled = 2
    case noTerminal = 3
    case unavailable = 4
    case noReader = 5
    case usage = 64
}
