/// How explanations name an item and its values: primary keys and attribute values in one line, never a secret.
extension Keychain {
    /// A one-line description of an item's primary key for explanations (never the secret).
    func describePrimaryKey(_ attributes: [AttributeKey: AttributeValue], schema: ClassSchema) -> String {
        let keys = schema.primaryKey + [.accessGroup, .synchronizable]
        return keys.map { key in
            let value = attributes[key] ?? (key == .synchronizable ? .bool(false) : schema.defaultValue(for: key))
            return "\(key.rawValue)=\(Self.display(value))"
        }.joined(separator: ", ")
    }

    static func display(_ value: AttributeValue) -> String {
        switch value {
        case .string(let text): "\"\(text)\""
        case .data(let bytes): "<\(bytes.count) bytes>"
        case .number(let number): "\(number)"
        case .bool(let flag): flag ? "true" : "false"
        case .date(let date):
            AttributeValue.isValidDate(date)
                ? "\(date)" : "an invalid date (\(date.timeIntervalSinceReferenceDate) seconds since 2001)"
        }
    }
}
