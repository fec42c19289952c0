import Foundation
import KeychainCore

/// Turns typed results into the Core Foundation shapes Apple returns for the `kSecReturn…` flags.
enum ResultEncoding {
    /// The result object for `results`: nil when nothing was asked for; one bare object for a limit of one;
    /// otherwise an array in insertion order.
    static func encode(_ results: [ItemResult], returns: ReturnOptions, limit: MatchLimit) -> AnyObject? {
        guard !returns.subtracting(.reference).isEmpty else { return references(results, limit: limit) }
        if limit == .one, let first = results.first { return encode(first, returns: returns) }
        return NSArray(array: results.map { encode($0, returns: returns) })
    }

    private static func encode(_ result: ItemResult, returns: ReturnOptions) -> AnyObject {
        if returns == .data { return valueData(result.value) }
        if returns == .persistentReference { return persistentReferenceData(result.persistentReference) }
        let dictionary = NSMutableDictionary()
        // Apple's server names the class only for kSecReturnRef (it builds the reference from the dictionary);
        // code that turns an attributes result back into a query relies on its absence.
        if returns.contains(.reference) {
            dictionary[constant("class")] = constant(result.itemClass.rawValue)
            if let object = reference(result) { dictionary[constant("v_Ref")] = object }
        }
        if let attributes = result.attributes {
            let schema = ClassSchema.of(result.itemClass)
            for (key, value) in attributes {
                // A number attribute given as a non-numeric string (kSecAttrPort: "") reads back as a number:
                // it is stored as one. iOS hands back the string the item was added with (docs/compatibility.md).
                if schema?.attributes[key] == .number, case .string(let text) = value {
                    dictionary[constant(key.rawValue)] = NSNumber(value: leadingInteger(text))
                    continue
                }
                // The stored access control comes back typed, below, as the SecAccessControl it was made from.
                if key.rawValue == "accc" { continue }
                dictionary[constant(key.rawValue)] = object(value)
            }
            if let policy = result.accessControl { dictionary[constant("accc")] = SecAccessControl(policy: policy) }
        }
        // An item stored without data has no v_Data key (Apple's si-80-empty-data). kSecReturnData alone gives
        // empty data, above, where iOS gives none for an item without data and empty data for one with empty
        // data: this keychain stores the two alike, and gives what code storing an empty password expects.
        if returns.contains(.data), let value = result.value, value.byteCount > 0 {
            dictionary[constant("v_Data")] = valueData(value)
        }
        if let reference = result.persistentReference {
            dictionary[constant("v_PersistentRef")] = ReturnedData.holding(reference.bytes)
        }
        return dictionary
    }

    /// What kSecReturnRef alone returns: each item's reference object. Passwords have none, so a search for
    /// them returns nothing, as on iOS.
    private static func references(_ results: [ItemResult], limit: MatchLimit) -> AnyObject? {
        let objects = results.compactMap(reference)
        guard !objects.isEmpty else { return nil }
        if limit == .one { return objects[0] }
        return NSArray(array: objects)
    }

    /// The reference object of one item: none for a password; a key item's `SecKey`, a certificate item's
    /// `SecCertificate`, an identity's `SecIdentity`.
    private static func reference(_ result: ItemResult) -> AnyObject? {
        switch result.value {
        case .secret?, nil: nil
        case .key(let key)?: SecKey(foundItemValue: key)
        case .certificate(let certificate)?:
            SecCertificateCreateWithData(nil, NSData(bytes: certificate.derBytes, length: certificate.derBytes.count))
        case .identity(let identity)?: SecIdentity(itemValue: identity)
        }
    }

    /// The integer SQLite reads from text: optional blanks and sign, then the digits up to the first other
    /// character; 0 when there are none.
    static func leadingInteger(_ text: String) -> Int64 {
        var characters = Substring(text).drop { $0 == " " || $0 == "\t" }
        var negative = false
        if let sign = characters.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            characters = characters.dropFirst()
        }
        var value: Int64 = 0
        for character in characters {
            guard let digit = character.wholeNumberValue, character.isASCII else { break }
            let (scaled, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = scaled.addingReportingOverflow(Int64(digit))
            guard !overflow, !carry else { break }
            value = sum
        }
        return negative ? -value : value
    }

    private static func data(_ secret: Secret?) -> NSData {
        guard let secret else { return ReturnedData.holding([]) }
        return secret.withUnsafeBytes { ReturnedData(copying: $0) }
    }

    /// kSecReturnPersistentRef alone: the reference's 20 bytes (zeros when the item has none).
    private static func persistentReferenceData(_ reference: PersistentReference?) -> NSData {
        guard let bytes = reference?.bytes, bytes.count == 20 else {
            return ReturnedData.holding([UInt8](repeating: 0, count: 20))
        }
        return ReturnedData.holding(bytes)
    }

    /// `kSecReturnData`: a password's secret, a key's external representation, a certificate's DER; for an
    /// identity its key's, as Apple's join reads the data column of the key's row.
    private static func valueData(_ value: ItemValue?) -> NSData {
        switch value {
        case nil: ReturnedData.holding([])
        case .secret(let secret)?: data(secret)
        case .key(let key)?: data(key.externalRepresentation)
        case .certificate(let certificate)?: ReturnedData.holding(certificate.derBytes)
        case .identity(let identity)?: data(identity.key.externalRepresentation)
        }
    }

    static func object(_ value: AttributeValue) -> AnyObject {
        switch value {
        case .string(let text): NSString(string: text)
        case .data(let bytes): NSData(bytes: bytes, length: bytes.count)
        case .number(let number): NSNumber(value: number)
        case .bool(let flag): NSNumber(value: flag)
        case .date(let date): NSDate(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate)
        }
    }

    // Result keys are the same constants clients index with, made once.
    nonisolated(unsafe) private static var constants: [String: NSString] = [:]
    private static let constantsLock = NSLock()

    static func constant(_ raw: String) -> NSString {
        constantsLock.lock()
        defer { constantsLock.unlock() }
        if let known = constants[raw] { return known }
        let made = SecConstant(raw)
        constants[raw] = made
        return made
    }
}
