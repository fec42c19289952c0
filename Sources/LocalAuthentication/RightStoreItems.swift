import Foundation
import Security

/// The keychain items of a persisted right, in the app's own access group, each made through the Security API:
/// - a P-256 key pair tagged with the right's identifier: the private key under the requirement's access control,
///   the public key without any, so that encrypting and verifying need no authorization;
/// - a generic password (service ``service``, account the identifier) holding the secret under the same access
///   control, its `kSecAttrGeneric` the right's record (requirement, whether there is a secret, the enrolled set
///   of a `.biometryCurrentSet` right, and the key pair's application label).
///
/// The generic password's primary key claims the identifier: the key pair is made first, and a save that loses the
/// claim removes its own pair, found by its application label, never another save's. Keys are always looked up by
/// tag and label together.
///
/// Both are `WhenPasscodeSetThisDeviceOnly`: a right never leaves the machine and needs a passcode.
enum RightStoreItems {
    static let service = "LocalAuthentication.LARightStore"

    /// What the generic password's `kSecAttrGeneric` says of the right: nothing secret.
    struct Record: Codable, Equatable {
        var requirement: String
        var hasSecret: Bool
        /// The enrolled set a `.biometryCurrentSet` right was saved with.
        var enrolledSet: Data?
        /// The key pair's application label (the SHA-1 of the public key), which tells it from any other pair
        /// with the same tag.
        var keyLabel: Data
    }

    /// A right as found in the store.
    struct Found {
        let record: Record
        let requirement: LAAuthenticationRequirement
        let publicKey: SecKey
    }

    /// Stores a new right's key pair and record, all or nothing. - Returns: the right as stored.
    /// - Parameter enrolledSet: the enrolled set a `.biometryCurrentSet` right is bound to.
    /// - Throws: errSecDuplicateItem when `identifier` is taken; the keychain's status otherwise.
    static func save(
        _ identifier: String, requirement: LAAuthenticationRequirement, enrolledSet: Data?, secret: Data?
    ) throws -> Found {
        let access = try accessControl(requirement)
        let tag = keyTag(identifier)
        let parameters: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
            kSecAttrApplicationTag as String: tag, kSecAttrLabel as String: identifier,
            kSecPrivateKeyAttrs as String: [
                kSecAttrIsPermanent as String: true, kSecAttrAccessControl as String: access,
            ],
            kSecPublicKeyAttrs as String: [kSecAttrIsPermanent as String: true],
        ]
        var error: Unmanaged<CFError>?
        guard let privateKey = SecKeyCreateRandomKey(parameters as CFDictionary, &error),
            let publicKey = SecKeyCopyPublicKey(privateKey)
        else {
            throw error?.takeRetainedValue() ?? statusError(errSecInternalComponent, "the right's key was not made")
        }
        // Without its label the new pair could not be told from another save's: it is left, never guessed at.
        guard
            let label = (SecKeyCopyAttributes(publicKey) as? [String: Any])?[kSecAttrApplicationLabel as String]
                as? Data
        else { throw statusError(errSecInternalComponent, "the right's key has no application label") }
        let record = Record(
            requirement: requirement.kind.rawValue, hasSecret: secret != nil, enrolledSet: enrolledSet, keyLabel: label)
        var item = passwordQuery(identifier)
        item[kSecAttrAccessControl as String] = access
        item[kSecAttrGeneric as String] = try JSONEncoder().encode(record)
        if let secret { item[kSecValueData as String] = secret }
        let status = SecItemAdd(item as CFDictionary, nil)
        guard status == errSecSuccess else {
            deleteKeys(identifier, label: record.keyLabel)
            let doing =
                status == errSecDuplicateItem
                ? "a right with identifier “\(identifier)” is already stored"
                : "the right “\(identifier)” was not stored"
            throw statusError(status, doing)
        }
        return Found(record: record, requirement: requirement, publicKey: publicKey)
    }

    /// The right stored as `identifier`. - Throws: errSecItemNotFound when there is none.
    static func find(_ identifier: String) throws -> Found {
        let record = try stored(identifier).record
        guard let kind = LAAuthenticationRequirement.Kind(rawValue: record.requirement) else {
            throw statusError(errSecDecode, "the stored right “\(identifier)” cannot be read")
        }
        let publicKey = try copyKey(identifier, label: record.keyLabel, keyClass: kSecAttrKeyClassPublic, extra: [:])
        return Found(record: record, requirement: LAAuthenticationRequirement(kind), publicKey: publicKey)
    }

    /// The secret of the right whose key pair has `keyLabel`, opened with `context` and never with a prompt.
    /// - Throws: errSecItemNotFound when the identifier now names another right (removed and saved again).
    static func secret(_ identifier: String, keyLabel: Data, context: LAContext) throws -> Data {
        let found = try stored(
            identifier,
            returning: [
                kSecReturnData as String: true, kSecUseAuthenticationContext as String: context,
                kSecUseAuthenticationUI as String: kSecUseAuthenticationUIFail,
            ])
        try found.check(keyLabel, identifier)
        guard let data = found.attributes[kSecValueData as String] as? Data else {
            throw statusError(errSecItemNotFound, "the secret of the right “\(identifier)” did not open")
        }
        return data
    }

    /// The right's private key, opened with `context` and never with a prompt.
    static func privateKey(_ identifier: String, label: Data, context: LAContext) throws -> SecKey {
        try copyKey(
            identifier, label: label, keyClass: kSecAttrKeyClassPrivate,
            extra: [
                kSecUseAuthenticationContext as String: context,
                kSecUseAuthenticationUI as String: kSecUseAuthenticationUIFail,
            ])
    }

    /// The identifiers of the rights stored in the app's access groups.
    static func identifiers() throws -> [String] {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecReturnAttributes as String: true, kSecMatchLimit as String: kSecMatchLimitAll,
        ]
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return [] }
        guard status == errSecSuccess, let items = result as? [[String: Any]] else {
            throw statusError(status, "the stored rights cannot be listed")
        }
        return items.compactMap { $0[kSecAttrAccount as String] as? String }
    }

    /// Removes the right's items. - Throws: errSecItemNotFound when there is no such right.
    /// - Parameter keyLabel: the key pair's label of the right to remove; nil removes whichever right the
    ///   identifier names. - Throws: errSecItemNotFound when the identifier names no such right.
    static func remove(_ identifier: String, keyLabel: Data? = nil) throws {
        let found = try stored(identifier, returning: [kSecReturnPersistentRef as String: true])
        if let keyLabel { try found.check(keyLabel, identifier) }
        // The very item read, not whatever the identifier names by the time of the delete.
        guard let reference = found.attributes[kSecValuePersistentRef as String] else {
            throw statusError(errSecItemNotFound, "no right is stored with identifier “\(identifier)”")
        }
        let status = SecItemDelete([kSecValuePersistentRef as String: reference] as CFDictionary)
        guard status == errSecSuccess else {
            throw statusError(status, "no right is stored with identifier “\(identifier)”")
        }
        deleteKeys(identifier, label: found.record.keyLabel)
    }

    /// The right's generic password as stored: its attributes (with what `returning` asks for too) and its record.
    private static func stored(_ identifier: String, returning: [String: Any] = [:]) throws -> Stored {
        var query = passwordQuery(identifier)
        query[kSecReturnAttributes as String] = true
        query.merge(returning) { $1 }
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        guard status == errSecSuccess else {
            let doing =
                returning[kSecReturnData as String] == nil
                ? "no right is stored with identifier “\(identifier)”"
                : "the secret of the right “\(identifier)” did not open"
            throw statusError(status, doing)
        }
        guard let attributes = result as? [String: Any], let encoded = attributes[kSecAttrGeneric as String] as? Data,
            let record = try? JSONDecoder().decode(Record.self, from: encoded)
        else { throw statusError(errSecDecode, "the stored right “\(identifier)” cannot be read") }
        return Stored(attributes: attributes, record: record)
    }

    private struct Stored {
        let attributes: [String: Any]
        let record: Record

        /// Throws errSecItemNotFound unless this is the right whose key pair has `keyLabel`.
        func check(_ keyLabel: Data, _ identifier: String) throws {
            guard record.keyLabel == keyLabel else {
                throw statusError(
                    errSecItemNotFound,
                    "the right “\(identifier)” was removed; the identifier now names a right saved since")
            }
        }
    }

    private static func passwordQuery(_ identifier: String) -> [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecAttrAccount as String: identifier,
        ]
    }

    private static func keyTag(_ identifier: String) -> Data { Data("\(service).\(identifier)".utf8) }

    private static func copyKey(_ identifier: String, label: Data, keyClass: CFString, extra: [String: Any]) throws
        -> SecKey
    {
        var query: [String: Any] = [
            kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: keyTag(identifier),
            kSecAttrKeyClass as String: keyClass, kSecReturnRef as String: true,
        ]
        query[kSecAttrApplicationLabel as String] = label
        query.merge(extra) { $1 }
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        guard status == errSecSuccess, let key = result as? SecKey else {
            throw statusError(status, "the key of the right “\(identifier)” did not open")
        }
        return key
    }

    /// Deletes the key pair with the identifier's tag and `label`, and no other.
    private static func deleteKeys(_ identifier: String, label: Data) {
        let query: [String: Any] = [
            kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: keyTag(identifier),
            kSecAttrApplicationLabel as String: label,
        ]
        _ = SecItemDelete(query as CFDictionary)
    }

    private static func accessControl(_ requirement: LAAuthenticationRequirement) throws -> SecAccessControl {
        var error: Unmanaged<CFError>?
        guard
            let access = SecAccessControlCreateWithFlags(
                nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, requirement.accessControlFlags, &error)
        else { throw error?.takeRetainedValue() ?? statusError(errSecParam, "no access control for the right") }
        return access
    }

    /// An error in `NSOSStatusErrorDomain` with the keychain's status and what was being done.
    static func statusError(_ status: OSStatus, _ doing: String) -> NSError {
        let message = SecCopyErrorMessageString(status, nil).map { String($0) } ?? "OSStatus \(status)"
        return NSError(
            domain: "NSOSStatusErrorDomain", code: Int(status),
            userInfo: [NSLocalizedDescriptionKey: "\(doing): \(message)"])
    }
}
