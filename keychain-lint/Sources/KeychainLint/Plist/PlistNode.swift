/// A property-list value with the place it was written, so findings point at the real line.
package struct PlistNode: Sendable {
    package indirect enum Value: Sendable {
        case dictionary([PlistEntry])
        case array([PlistNode])
        case string(String)
        case boolean(Bool)
        case number(String)
        case data
        case date
    }

    package var value: Value
    package var position: SourcePosition

    package subscript(key: String) -> PlistNode? {
        guard case .dictionary(let entries) = value else { return nil }
        return entries.last { $0.key == key }?.value
    }

    package var entries: [PlistEntry] {
        if case .dictionary(let entries) = value { return entries }
        return []
    }

    package var elements: [PlistNode] {
        if case .array(let elements) = value { return elements }
        return []
    }

    package var stringValue: String? {
        if case .string(let text) = value { return text }
        return nil
    }

    package var isTrue: Bool {
        switch value {
        case .boolean(let flag): flag
        case .string(let text): text == "YES" || text == "true"
        case .number(let text): text == "1"
        default: false
        }
    }
}

package struct PlistEntry: Sendable {
    package var key: String
    package var keyPosition: SourcePosition
    package var value: PlistNode
}
