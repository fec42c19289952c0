import Foundation

/// A failed SecKey call: the `OSStatus` Apple reports and a reason, given to the caller as a `CFError` in
/// `NSOSStatusErrorDomain`. Reasons name algorithms and sizes, never key bytes.
struct SecKeyError: Error {
    let status: OSStatus
    let reason: String

    init(_ status: OSStatus, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    /// The `CFError` Apple's functions return, with the reason as its description ("NSDescription").
    var cfError: CFError {
        NSError(
            domain: "NSOSStatusErrorDomain", code: Int(status),
            userInfo: ["NSDescription": reason, NSLocalizedDescriptionKey: reason])
    }

    static func param(_ reason: String) -> SecKeyError { SecKeyError(errSecParam, reason) }
}

extension SecKeyError {
    /// Runs `body`, storing a failure in `error` (when given) and answering nil.
    static func reporting<T>(_ errorOut: UnsafeMutablePointer<Unmanaged<CFError>?>?, _ body: () throws -> T) -> T? {
        do {
            return try body()
        } catch {
            let failure =
                error as? SecKeyError ?? SecKeyError(errSecInternalComponent, "the cryptographic library failed")
            errorOut?.pointee = Unmanaged.passRetained(failure.cfError)
            return nil
        }
    }
}
