import Foundation
import KeychainCore
import KeychainRequests
import Security

/// The command's keychain seen through the `Security` face: SecItem calls made as the command's identity, on
/// the keychain the options chose (`SecurityRuntime.withKeychain`), or through keychaind as the identity the
/// daemon gives (with owner rights when claimed), so the certificate, identity and key verbs do what an app's
/// calls do.
struct KeychainFace {
    /// The keychain the command opened in its own process; nil through keychaind.
    let keychain: Keychain?
    /// The service the calls go to: the keychain's in process, or keychaind's.
    let client: KeychainClient
    /// `-G GROUP` when it narrows every call: `KEYCHAIN_ENTITLEMENTS` confines the command, or through keychaind.
    let accessGroup: String?

    /// A stored item: its reference object, attributes and persistent reference.
    struct Item<Reference> {
        let reference: Reference
        let attributes: [String: Any]

        var label: String? { attributes[kSecAttrLabel as String] as? String }
        var accessGroup: String? { attributes[kSecAttrAccessGroup as String] as? String }
        /// The name of this one row: a copy of the same key or certificate in another access group has another.
        var persistentReference: Data? { attributes[kSecValuePersistentRef as String] as? Data }
    }

    func run<R>(_ body: () throws -> R) rethrows -> R {
        if let keychain { return try SecurityRuntime.withKeychain(keychain, body) }
        return try ProcessKeychainService.$taskService.withValue(client.service, operation: body)
    }

    /// The path of the keychain's database, as listings print it.
    var databasePath: String {
        if let keychain { return keychain.configuration.home.appendingPathComponent(Keychain.databaseFileName).path }
        return (try? client.describeService().databasePath) ?? Keychain.databaseFileName
    }

    /// `query` with the access group, when one is imposed.
    func scoped(_ query: [String: Any]) -> [String: Any] {
        var query = query
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    /// Every certificate item.
    func certificates(operation: String) throws(CommandFailure) -> [Item<SecCertificate>] {
        try items(kSecClassCertificate, [:], operation: operation)
    }

    /// Every private key item.
    func privateKeys(operation: String) throws(CommandFailure) -> [Item<SecKey>] {
        try items(kSecClassKey, [kSecAttrKeyClass as String: kSecAttrKeyClassPrivate], operation: operation)
    }

    private func items<Reference>(_ itemClass: CFString, _ extra: [String: Any], operation: String)
        throws(CommandFailure) -> [Item<Reference>]
    {
        var query = scoped(extra)
        query[kSecClass as String] = itemClass
        query[kSecMatchLimit as String] = kSecMatchLimitAll
        query[kSecReturnRef as String] = true
        query[kSecReturnAttributes as String] = true
        query[kSecReturnPersistentRef as String] = true
        var result: CFTypeRef?
        let status = run { SecItemCopyMatching(query as CFDictionary, &result) }
        if status == errSecItemNotFound { return [] }
        guard status == errSecSuccess else { throw Self.failure(operation, status) }
        let found = (result as? [[String: Any]]) ?? []
        return found.compactMap { attributes in
            (attributes[kSecValueRef as String] as? Reference).map { Item(reference: $0, attributes: attributes) }
        }
    }

    /// Adds one item; answers the status (errSecDuplicateItem is the caller's to judge).
    func add(_ attributes: [String: Any]) -> OSStatus {
        let attributes = scoped(attributes)
        return run { SecItemAdd(attributes as CFDictionary, nil) }
    }

    /// Adds one item and answers its status and persistent reference: the name of that one row, which a copy
    /// of the same key or certificate in another access group does not share.
    func addReturningPersistentReference(_ attributes: [String: Any]) -> (status: OSStatus, reference: Data?) {
        var attributes = scoped(attributes)
        attributes[kSecReturnPersistentRef as String] = true
        var result: CFTypeRef?
        let status = run { SecItemAdd(attributes as CFDictionary, &result) }
        return (status, result as? Data)
    }

    /// Deletes the one item `persistentReference` names.
    func delete(persistentReference: Data, operation: String) throws(CommandFailure) {
        let query = scoped([kSecValuePersistentRef as String: persistentReference])
        let status = run { SecItemDelete(query as CFDictionary) }
        guard status == errSecSuccess else { throw Self.failure(operation, status) }
    }

    /// Deletes the one row `item` was read from (never by its value: for the owner that would also match a copy
    /// in another access group).
    func delete<Reference>(_ item: Item<Reference>, operation: String) throws(CommandFailure) {
        guard let reference = item.persistentReference else {
            throw CommandFailure(
                operation,
                KeychainError(SecurityStatus.internalComponent).because("the item has no persistent reference"))
        }
        try delete(persistentReference: reference, operation: operation)
    }

    static func failure(_ operation: String, _ status: OSStatus) -> CommandFailure {
        CommandFailure(operation, KeychainError(status))
    }
}

/// A private key and the certificate of its public key: an identity.
struct StoredIdentity {
    let certificate: KeychainFace.Item<SecCertificate>
    let key: KeychainFace.Item<SecKey>

    /// Pairs certificates with private keys by public key (Apple's join of `pkhh` and `klbl`), preferring the key
    /// in the certificate's own access group: the owner, who sees every group, then pairs an app's certificate
    /// with that app's key, not with another app's copy of it.
    static func pairs(_ certificates: [KeychainFace.Item<SecCertificate>], _ keys: [KeychainFace.Item<SecKey>])
        -> [StoredIdentity]
    {
        var keysByPublicKey: [Data: [KeychainFace.Item<SecKey>]] = [:]
        for key in keys {
            let publicKey = SecKeyCopyPublicKey(key.reference)
            if let external = publicKey.flatMap({ SecKeyCopyExternalRepresentation($0, nil) }) {
                keysByPublicKey[external as Data, default: []].append(key)
            }
        }
        return certificates.compactMap { certificate in
            guard let publicKey = SecCertificateCopyKey(certificate.reference),
                let external = SecKeyCopyExternalRepresentation(publicKey, nil),
                let candidates = keysByPublicKey[external as Data],
                let key = candidates.first(where: { $0.accessGroup == certificate.accessGroup }) ?? candidates.first
            else { return nil }
            return StoredIdentity(certificate: certificate, key: key)
        }
    }
}

extension SecurityCommandRunner {
    /// The face over the keychain the options choose: through keychaind when the process names its socket,
    /// claiming owner rights first as the password verbs do (+Owner).
    func face(_ identity: IdentityOptions) throws(CommandFailure) -> KeychainFace {
        if case .environment = source, let socket = daemonSocket {
            let client = daemonClient(socket, identity: identity, asOwner: true)
            return KeychainFace(keychain: nil, client: client, accessGroup: identity.accessGroup)
        }
        do {
            let configuration = try source.configuration(for: identity)
            let keychain = try Keychain(configuration: configuration)
            return KeychainFace(
                keychain: keychain,
                client: KeychainClient(
                    service: InProcessKeychainService(keychain), caller: Caller(identity: configuration.identity)),
                accessGroup: source.confinesIdentity ? identity.accessGroup : nil)
        } catch let error as KeychainError {
            throw CommandFailure("SecKeychainCopyDefault", error)
        } catch {
            throw CommandFailure("SecKeychainCopyDefault", KeychainError.notAvailable.because(verbatim: "\(error)"))
        }
    }
}
