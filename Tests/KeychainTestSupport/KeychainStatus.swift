import KeychainCore

/// The status a throwing call ends with: 0 when it succeeds, the `KeychainError`'s status, an authentication
/// failure's code, and `errSecInternalComponent` for any other error (as the `Security` face reports one).
package func status(_ body: () throws -> Void) -> Int32 {
    do {
        try body()
        return SecurityStatus.success
    } catch let error as KeychainError {
        return error.status
    } catch let failure as AuthenticationFailure {
        return Int32(failure.rawValue)
    } catch {
        return SecurityStatus.internalComponent
    }
}
