/// The kind of value an attribute holds.
package enum AttributeKind: Sendable {
    /// Text; Apple also accepts data here and keeps the type it was given.
    case text
    /// Raw bytes.
    case data
    /// An integer (`CFNumber`), including FourCharCodes.
    case number
    /// A Boolean.
    case boolean
    /// A date set by the engine.
    case date
}
