import KeychainCore
import KeychainMessages

/// The attribute options shared by a class's add, find and delete verbs, and how each value is read.
struct ItemAttributeOptions {
    let verb: SecurityVerb

    /// Turns attribute options into attribute values; a repeated option keeps its last value, as `getopt` does.
    /// - Throws: `UsageError` for a value that is not valid for its attribute.
    func attributes(from options: [ScannedOption]) throws(UsageError) -> [AttributeKey: AttributeValue] {
        var attributes: [AttributeKey: AttributeValue] = [:]
        for option in options {
            let value = option.value ?? ""
            let (key, parsed) = try attribute(option.letter, value)
            attributes[key] = parsed
        }
        return attributes
    }

    private func attribute(_ letter: Character, _ value: String) throws(UsageError) -> (AttributeKey, AttributeValue) {
        let internet = verb.itemClass == .internetPassword
        switch letter {
        case "a": return (.account, .string(value))
        case "s": return (internet ? .server : .service, .string(value))
        case "l": return (.label, .string(value))
        case "j": return (.comment, .string(value))
        case "D": return (.description, .string(value))
        case "G": return (.generic, .string(value))
        case "d": return (.securityDomain, .string(value))
        case "p": return (.path, .string(value))
        case "c", "C":
            guard let number = FourCharCode.number(value) else {
                throw UsageError(.fourCharacterCode(option: letter, value: value), verb: verb)
            }
            return (letter == "c" ? .creator : .type, .number(number))
        case "r":
            guard let code = FourCharCode.protocolCode(value) else {
                throw UsageError(.protocolCode(value), verb: verb)
            }
            return (.protocol, .string(code))
        case "t":
            guard let code = FourCharCode.authenticationTypeCode(value) else {
                throw UsageError(.authenticationType(value), verb: verb)
            }
            return (.authenticationType, .string(code))
        case "P":
            // macOS reads the port with atoi: leading digits, none meaning 0 (no port). A number outside a port's
            // range, negative or too large, which macOS would silently wrap, is refused.
            let number = value.drop { $0 == " " || $0 == "\t" }
            let digits = number.drop { $0 == "+" }.prefix { $0.isASCII && $0.isNumber }
            let isNegative = number.first == "-" && number.dropFirst().first?.isNumber == true
            guard !isNegative, let port = digits.isEmpty ? 0 : UInt16(digits) else {
                throw UsageError(.port(value), verb: verb)
            }
            return (.port, .number(Int64(port)))
        default:
            throw UsageError(.illegalOption("-- \(letter)"), verb: verb)
        }
    }
}
