import Foundation
import KeychainCore
import KeychainMessages

/// `kSecAttrIsPermanent` in `SecKeyCreateRandomKey`: the key (or both halves) stored as key items. True at the top
/// level stores both keys; in `kSecPrivateKeyAttrs` or `kSecPublicKeyAttrs` it decides for that key. Each item
/// takes the top level's item attributes (tag, label, access control, group…) with its own dictionary's on top.
struct PermanentKeyRequest {
    /// The add dictionary of the private key, when it is to be stored (its `kSecValueRef` still to be set).
    let privateItem: [String: Any]?
    let publicItem: [String: Any]?

    /// Parameters that shape the generation, not the item.
    private static let generationKeys: Set<String> = [
        "class", "perm", "type", "bsiz", "tkid", kSecPrivateKeyAttrs as String, kSecPublicKeyAttrs as String,
    ]

    init(_ parameters: NSDictionary) throws {
        let privateAttributes = try Self.dictionary(parameters[kSecPrivateKeyAttrs], "kSecPrivateKeyAttrs")
        let publicAttributes = try Self.dictionary(parameters[kSecPublicKeyAttrs], "kSecPublicKeyAttrs")
        let everywhere = try Self.permanent(parameters)
        privateItem =
            try Self.permanent(privateAttributes) ?? everywhere ?? false
            ? Self.item(parameters, privateAttributes) : nil
        publicItem =
            try Self.permanent(publicAttributes) ?? everywhere ?? false
            ? Self.item(parameters, publicAttributes) : nil
    }

    var isEmpty: Bool { privateItem == nil && publicItem == nil }

    private static func dictionary(_ value: Any?, _ name: String) throws -> NSDictionary? {
        guard let value else { return nil }
        guard let dictionary = value as? NSDictionary else { throw SecKeyError.param("\(name) is not a dictionary") }
        return dictionary
    }

    private static func permanent(_ dictionary: NSDictionary?) throws -> Bool? {
        guard let value = dictionary?[kSecAttrIsPermanent] else { return nil }
        guard let flag = (value as? Bool) ?? (value as? NSNumber)?.boolValue else {
            throw SecKeyError.param("kSecAttrIsPermanent is not a Boolean")
        }
        return flag
    }

    private static func item(_ parameters: NSDictionary, _ own: NSDictionary?) -> [String: Any] {
        var item: [String: Any] = [:]
        for scope in [parameters, own ?? NSDictionary()] {
            for (key, value) in scope {
                guard let name = SecDictionary.string(key), !generationKeys.contains(name) else { continue }
                item[name] = value
            }
        }
        item[kSecClass as String] = kSecClassKey
        return item
    }
}

extension PermanentKeyRequest {
    /// Stores the keys the request makes permanent, all or none: if the public key's add fails, the private
    /// key's item is deleted again.
    /// - Throws: ``SecKeyError`` with the add's status (errSecDuplicateItem, errSecParam, …) and reason.
    func store(privateKey: SecKey, publicKey: SecKey?) throws {
        var added: [PersistentReference] = []
        do {
            let client = try SecurityRuntime.current()
            for (dictionary, key) in [(privateItem, privateKey), (publicItem, publicKey)] {
                guard var dictionary, let key else { continue }
                dictionary[kSecValueRef as String] = key
                var notes: [KeychainError.Reason] = []
                var (item, context) = try SecItemRequest.add(dictionary as NSDictionary, notes: &notes)
                SecurityRuntime.log("SecKeyCreateRandomKey", notes: notes)
                item.returns = .persistentReference
                if let reference = try client.using(context).add(item)?.persistentReference {
                    added.append(reference)
                }
            }
        } catch let error as KeychainError {
            for reference in added {
                _ = try? SecurityRuntime.current().delete(ItemQuery(persistentReference: reference))
            }
            SecurityRuntime.log("SecKeyCreateRandomKey", error.localizedReason(in: .current) ?? "")
            throw SecKeyError(error.status, "the key could not be stored in the keychain: \(error.reason ?? "")")
        }
    }
}
