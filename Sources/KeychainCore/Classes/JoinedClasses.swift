/// How a joined class makes its items from two stored classes: an item of `primary` pairs with each item of
/// `partner` whose `partnerAttribute` equals its `primaryAttribute` and that satisfies `partnerConditions`.
/// An identity is a certificate (primary) with the private key whose `klbl` is the certificate's `pkhh`.
package struct JoinedClasses: Sendable {
    /// The class that identifies a joined item: its persistent reference and its primary key are this class's.
    package let primary: ItemClass
    package let partner: ItemClass
    package let primaryAttribute: AttributeKey
    package let partnerAttribute: AttributeKey
    /// What every partner item must hold (an identity's key is a private key).
    package let partnerConditions: [AttributeKey: AttributeValue]

    /// The stored schemas of both halves.
    package var schemas: (primary: ClassSchema, partner: ClassSchema)? {
        guard let primary = ClassSchema.of(primary), let partner = ClassSchema.of(partner) else { return nil }
        return (primary, partner)
    }

    /// Splits a joined query's or item's attributes between the halves: an attribute the primary class has is
    /// the primary's (so a label names the certificate, as Apple's join takes `labl` from the certificate);
    /// the others are the partner's.
    package func split(_ attributes: [AttributeKey: AttributeValue])
        -> (primary: [AttributeKey: AttributeValue], partner: [AttributeKey: AttributeValue])
    {
        guard let schemas else { return ([:], [:]) }
        var primaryPart: [AttributeKey: AttributeValue] = [:]
        var partnerPart: [AttributeKey: AttributeValue] = [:]
        for (key, value) in attributes {
            if schemas.primary.attributes[key] != nil { primaryPart[key] = value } else { partnerPart[key] = value }
        }
        return (primaryPart, partnerPart)
    }
}
