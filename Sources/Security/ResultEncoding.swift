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
            // A number attribute given as a non-numeric string (kSecAttrPort: "", a four-character code) reads
            // back as that string: iOS reads attributes from the item's sealed copy, where the string was kept.
            for (key, value) in attributes {
                // The stored access control comes back typed, below, as the SecAccessControl it was made from.
                if key.rawValue == "accc" { continue }
                dictionary[constant(key.rawValue)] = object(value)
            }
            if let policy = result.accessControl { dictionary[constant("accc")] = SecAccessControl(policy: policy) }
        }
        // An item stored without data has no v_Data key (Apple's si-80-empty-data). kSecReturnData alone gives
        // empty data, above, where iOS gives none for an item without data and empty data for one with empty
        // data: this keychain stores the two alike, and gives what code storing an empty password expects.
        // With kSecReturnRef a password, which has no reference object, keeps its data in the dictionary, as
        // Apple's client leaves the data it fetched to make a reference when none was made.
        let keepsData = returns.contains(.data) || (returns.contains(.reference) && result.value?.secret != nil)
        if keepsData, let value = result.value, value.byteCount > 0 {
            dictionary[constant("v_Data")] = valueData(value)
        }
        if let reference = result.persistentReference {
            dictionary[constant("v_PersistentRef")] = ReturnedData.holding(reference.bytes)
        }
        return dictionary
    }

    /// What kSecReturnRef alone returns: each item's reference object. Passwords have none, so a search for
    /// one of them returns nothing, and a search for all of them an empty array, as Apple's client builds it
    /// (`SecItemResultProcess` skips the items it makes no reference for).
    private static func references(_ results: [ItemResult], limit: MatchLimit) -> AnyObject? {
        let objects = results.compactMap(reference)
        if limit == .one { return objects.first }
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
