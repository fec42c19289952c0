import Foundation
import KeychainCore
import KeychainRequests

/// `SecItemCopyMatching` with certificate search keys: the engine (in process or keychaind) finds the items
/// that match the attributes, and the keys are applied here, where certificates are parsed, before the limit.
/// Every step is an ordinary request, so it works the same through keychaind.
///
/// 1. The candidates: the query without its limit, each with its persistent reference and attributes (no
///    secret, so no prompt for an identity's key).
/// 2. Each candidate's certificate (for an identity, its certificate item's), in order, until the limit is
///    reached: the certificate search keys and `kSecMatchItemList` decide.
/// 3. What the caller asked for, of the items that passed: from the candidate when attributes and persistent
///    references are all it asked for, else by a search of each item's persistent reference.
struct CertificateMatchSearch {
    let client: KeychainClient
    let query: ItemQuery
    let match: CertificateMatch

    /// The items that match the query and pass the keys, at most the query's limit of them.
    /// - Throws: errSecItemNotFound when none does; errSecUnimplemented (Apple's errSecUnsupportedOperation) for
    ///   `kSecMatchIssuers` or `kSecMatchPolicy` on a class other than certificates and identities.
    func run() throws -> SearchReport {
        // Without a class the engine answers as for any query that lacks one.
        guard let itemClass = query.itemClass ?? query.persistentReference?.itemClass else {
            return try client.search(query)
        }
        let ofCertificates = itemClass == .certificate || itemClass == .identity
        if !ofCertificates, let key = match.certificateOnlyKeys.first {
            throw KeychainError.unimplemented.because(
                "\(key) applies only to certificates and identities, not to class \(itemClass.rawValue)")
        }
        if match.hostOrSubdomain != nil, itemClass != .internetPassword {
            throw KeychainError.unimplemented.because(
                "m_HostOrSubdomainOfHost applies only to internet passwords (inet), not to class \(itemClass.rawValue)")
        }
        // On other classes the certificate keys are ignored, as by Apple's keychain; an item list and a host remain.
        guard ofCertificates || match.itemList != nil || match.hostOrSubdomain != nil else {
            return try client.search(query)
        }
        var candidateQuery = query
        candidateQuery.limit = .all
        candidateQuery.returns = [.attributes, .persistentReference]
        let candidates = try client.search(candidateQuery)
        let keychain = keychainCertificates()
        var passed: [ItemResult] = []
        for candidate in candidates.results {
            if case .count(let count) = query.limit, passed.count >= count { break }
            if query.limit == .one, !passed.isEmpty { break }
            if try admits(candidate, filtersCertificates: ofCertificates, keychain: keychain) {
                passed.append(candidate)
            }
        }
        let results = try passed.compactMap(result)
        guard !results.isEmpty else {
            let keys = match.keys.sorted().joined(separator: ", ")
            throw KeychainError.itemNotFound.because(
                "\(candidates.results.count) item(s) of class \(itemClass.rawValue) match the query's "
                    + "attributes, but none passes \(keys)")
        }
        return SearchReport(
            results: results, leftOut: candidates.leftOut, damaged: candidates.damaged,
            explanation: candidates.explanation)
    }

    /// Whether a candidate passes the item list and, for certificates and identities, the certificate keys.
    private func admits(
        _ candidate: ItemResult, filtersCertificates: Bool, keychain: CertificateMatch.KeychainCertificates
    ) throws -> Bool {
        var certificate: SecCertificate?
        func theCertificate() throws -> SecCertificate? {
            if certificate == nil { certificate = try certificateOf(candidate) }
            return certificate
        }
        if let list = match.itemList, try !list.contains(where: { try listed($0, candidate, theCertificate) }) {
            return false
        }
        guard match.admitsServer(candidate.attributes?[.server]) else { return false }
        guard filtersCertificates, match.readsCertificates else { return true }
        guard let found = try theCertificate() else { return false }
        return try match.admits(found, caseInsensitive: query.caseInsensitive, keychain: keychain)
    }

    /// Whether `candidate` is the item `listed` names: by persistent reference, by certificate, or by a key's
    /// identifying attributes.
    private func listed(
        _ listed: CertificateMatch.ListedItem, _ candidate: ItemResult,
        _ certificate: () throws -> SecCertificate?
    ) throws -> Bool {
        switch listed {
        case .persistentReference(let reference): return candidate.persistentReference == reference
        case .certificate(let wanted):
            guard candidate.itemClass == .certificate || candidate.itemClass == .identity else { return false }
            return try certificate() == wanted
        case .identity(let identity):
            guard candidate.itemClass == .certificate || candidate.itemClass == .identity else { return false }
            return try certificate() == identity.certificate
        case .key(let key):
            guard candidate.itemClass == .key, let attributes = candidate.attributes else { return false }
            return key.identifyingAttributes.allSatisfy { attributes[$0.key] == $0.value }
        }
    }

    /// The certificate of a certificate item or an identity: its certificate item's data, found by the
    /// persistent reference (an identity's names its certificate item). Nil when it is gone or unreadable now.
    private func certificateOf(_ candidate: ItemResult) throws -> SecCertificate? {
        guard let reference = candidate.persistentReference else { return nil }
        var lookup = ItemQuery(
            itemClass: .certificate, synchronizable: .any, limit: .one, returns: .data,
            persistentReference: PersistentReference(itemClass: .certificate, uuid: reference.uuid))
        lookup.authentication = query.authentication
        guard let value = try? client.search(lookup).results.first?.value,
            case .certificate(let certificate) = value
        else { return nil }
        let der = certificate.derBytes
        return SecCertificateCreateWithData(nil, NSData(bytes: der, length: der.count))
    }

    /// The keychain's certificates, read once and only when a key needs them.
    private func keychainCertificates() -> CertificateMatch.KeychainCertificates {
        let client = client
        let authentication = query.authentication
        var issuersBySubject: [[UInt8]: [[UInt8]]]?
        var all: [SecCertificate]?
        func search(_ returns: ReturnOptions) throws -> [ItemResult] {
            var every = ItemQuery(itemClass: .certificate, synchronizable: .any, limit: .all, returns: returns)
            every.authentication = authentication
            do {
                return try client.search(every).results
            } catch KeychainError.itemNotFound {
                return []
            }
        }
        return CertificateMatch.KeychainCertificates(
            issuersBySubject: {
                if let issuersBySubject { return issuersBySubject }
                var found: [[UInt8]: [[UInt8]]] = [:]
                for result in try search(.attributes) {
                    guard case .data(let subject)? = result.attributes?[.subject],
                        case .data(let issuer)? = result.attributes?[.issuer]
                    else { continue }
                    found[subject, default: []].append(issuer)
                }
                issuersBySubject = found
                return found
            },
            all: {
                if let all { return all }
                let found = try search(.data).compactMap { result -> SecCertificate? in
                    guard case .certificate(let value)? = result.value else { return nil }
                    let der = value.derBytes
                    return SecCertificateCreateWithData(nil, NSData(bytes: der, length: der.count))
                }
                all = found
                return found
            })
    }

    /// What the caller asked for of an item that passed: from the candidate when it holds all of it, else by
    /// its persistent reference. Nil when the item went away meanwhile.
    private func result(_ candidate: ItemResult) throws -> ItemResult? {
        let returns = query.returns
        if returns.subtracting([.attributes, .persistentReference]).isEmpty {
            let attributes = returns.contains(.attributes) ? candidate.attributes : nil
            return ItemResult(
                itemClass: candidate.itemClass, value: nil, attributes: attributes,
                persistentReference: returns.contains(.persistentReference) ? candidate.persistentReference : nil,
                accessControl: attributes == nil ? nil : candidate.accessControl)
        }
        guard let reference = candidate.persistentReference else { return nil }
        var single = query
        single.limit = .one
        single.persistentReference = reference
        do {
            return try client.search(single).results.first
        } catch KeychainError.itemNotFound {
            return nil
        }
    }
}
