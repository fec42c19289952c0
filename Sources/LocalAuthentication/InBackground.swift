import Dispatch

/// The completion-handler forms of the rights API: `body` runs on a background queue, and `handler` receives its
/// value or its error there. (Authorizations, which prompt, run on `LAContext.promptQueue` instead.)
enum InBackground {
    static func reply<R: Sendable>(
        _ handler: @escaping @Sendable (R?, (any Error)?) -> Void, _ body: @escaping @Sendable () throws -> R
    ) {
        DispatchQueue.global().async {
            do {
                handler(try body(), nil)
            } catch {
                handler(nil, error)
            }
        }
    }

    static func reply(
        _ handler: @escaping @Sendable ((any Error)?) -> Void, _ body: @escaping @Sendable () throws -> Void
    ) {
        DispatchQueue.global().async { handler(Result { try body() }.failure) }
    }
}

extension Result {
    /// The error, or nil on success.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
