import Foundation
import KeychainCore
import Security

/// The JSON a `security doctor` reads, turned into the dictionaries a SecItem function receives: keys and
/// constant values may be Apple's raw strings or the constants' names (`"kSecAttrService"`,
/// `"kSecClassGenericPassword"`); a string given for `kSecValueData` is its UTF-8 bytes.
struct DoctorInput {
    /// The function the JSON names (`"function": "add"`), if any.
    var function: DoctorCommand.Function?
    /// The dictionary (an update's query).
    var dictionary: NSDictionary
    /// An update's second dictionary.
    var attributesToUpdate: NSDictionary?

    /// A JSON value as decoded, so that `true` stays a Boolean and `1` a number.
    private indirect enum Value: Decodable {
        case bool(Bool)
        case integer(Int)
        case double(Double)
        case string(String)
        case null
        case array([Value])
        case object([String: Value])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let flag = try? container.decode(Bool.self) {
                self = .bool(flag)
            } else if let number = try? container.decode(Int.self) {
                self = .integer(number)
            } else if let number = try? container.decode(Double.self) {
                self = .double(number)
            } else if let text = try? container.decode(String.self) {
                self = .string(text)
            } else if let array = try? container.decode([Value].self) {
                self = .array(array)
            } else {
                self = .object(try container.decode([String: Value].self))
            }
        }
    }

    /// - Throws: a message when the bytes are not a JSON object of the expected shape.
    init(json bytes: Data) throws(DoctorInputError) {
        guard case .object(let top)? = try? JSONDecoder().decode(Value.self, from: bytes) else {
            throw DoctorInputError(because: "the input is not a JSON object")
        }
        var body = top
        if case .string(let name)? = top["function"] {
            guard let named = CommandParser.doctorFunction(name) else {
                throw DoctorInputError(because: "\"function\": \"\(name)\" is not add, copy, update or delete")
            }
            function = named
            body["function"] = nil
        }
        if case .object(let query)? = body["query"] {
            dictionary = Self.dictionary(query)
            if case .object(let changes)? = body["attributesToUpdate"] {
                attributesToUpdate = Self.dictionary(changes)
            }
        } else {
            dictionary = Self.dictionary(body)
        }
    }

    private static func dictionary(_ object: [String: Value]) -> NSDictionary {
        var result: [String: Any] = [:]
        for (name, value) in object {
            let key = secItemConstantsByName[name] ?? name
            if key == (kSecValueData as String), case .string(let text) = value {
                result[key] = Data(text.utf8)
            } else {
                result[key] = plain(value)
            }
        }
        return result as NSDictionary
    }

    private static func plain(_ value: Value) -> Any {
        switch value {
        case .bool(let flag): flag
        case .integer(let number): number
        case .double(let number): number
        case .string(let text): secItemConstantsByName[text] ?? text
        case .null: NSNull()
        case .array(let values): values.map(plain)
        case .object(let object): dictionary(object)
        }
    }
}

/// Why a doctor's input could not be read.
struct DoctorInputError: Error {
    let message: KeychainError.Reason
    init(because message: KeychainError.Reason) { self.message = message }
}
