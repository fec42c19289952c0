/// What a keychain call would act on, found without changing anything (`security doctor`).
public struct OperationPreview: Sendable {
    /// The primary key of each item the call would act on (with `agrp`, `sync` and `pdmn`), in insertion order.
    /// Never a secret.
    public let items: [[AttributeKey: AttributeValue]]
    /// Matching items whose protection class is not available now, or that are damaged: a read would leave them
    /// out, or fail (a delete removes them all the same).
    public let unavailable: Int

    public init(items: [[AttributeKey: AttributeValue]], unavailable: Int) {
        self.items = items
        self.unavailable = unavailable
    }
}
