import Foundation
import KeychainCrypto

/// What a user accepted about a chain: for each certificate of an evaluated chain (the leaf first), the SHA-256
/// of its DER and the checks it failed. A later evaluation whose certificate at the same place has that digest
/// ignores those failures, and no other. Apple's data is opaque to apps and differs by release; this one is a
/// binary property list of such entries (Apple binds them with SHA-1; SHA-256 here, since a chosen-prefix SHA-1
/// collision would let an accepted certificate vouch for another).
struct TrustExceptions {
    struct Entry {
        /// Nil when the certificate could not be hashed: such an entry excuses nothing.
        let digest: [UInt8]?
        let checks: Set<String>
    }

    private static let digestKey = "SHA256Digest"
    let entries: [Entry]

    /// The exceptions an evaluation's failures call for: every certificate up to the last that failed, the leaf
    /// always.
    init(chain: [SecCertificate], failures: [SecTrustFailure]) {
        let last = failures.map(\.index).max() ?? 0
        entries = chain.prefix(last + 1).enumerated().map { index, certificate in
            Entry(
                digest: Self.digest(of: certificate),
                checks: Set(failures.filter { $0.index == index }.map(\.check.exceptionKey)))
        }
    }

    /// Reads what ``encoded`` wrote; nil for anything else.
    init?(encoded data: Data) {
        guard let list = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil),
            let array = list as? [Any], !array.isEmpty
        else { return nil }
        var entries: [Entry] = []
        for element in array {
            guard let dictionary = element as? [String: Any] else { return nil }
            var checks = Set<String>()
            var digest: [UInt8]?
            for (key, value) in dictionary {
                if key == Self.digestKey, let data = value as? Data {
                    digest = Array(data)
                } else if (value as? Bool) == true || (value as? NSNumber)?.boolValue == true {
                    checks.insert(key)
                }
            }
            entries.append(Entry(digest: digest, checks: checks))
        }
        self.entries = entries
    }

    /// A binary property list: an array with a dictionary per certificate, its digest and a `true` per check.
    var encoded: Data {
        let list: [[String: Any]] = entries.map { entry in
            var dictionary: [String: Any] = [:]
            if let digest = entry.digest { dictionary[Self.digestKey] = Data(digest) }
            for check in entry.checks { dictionary[check] = true }
            return dictionary
        }
        return (try? PropertyListSerialization.data(fromPropertyList: list, format: .binary, options: 0)) ?? Data()
    }

    /// Whether the exceptions were made for this leaf.
    func apply(toLeaf leaf: SecCertificate) -> Bool {
        guard let made = entries.first?.digest else { return false }
        return made == Self.digest(of: leaf)
    }

    /// Whether `failure`, on `chain`, is one the user accepted.
    func excuses(_ failure: SecTrustFailure, on chain: [SecCertificate]) -> Bool {
        guard entries.indices.contains(failure.index), chain.indices.contains(failure.index) else { return false }
        let entry = entries[failure.index]
        guard let made = entry.digest, entry.checks.contains(failure.check.exceptionKey) else { return false }
        return made == Self.digest(of: chain[failure.index])
    }

    private static func digest(of certificate: SecCertificate) -> [UInt8]? {
        try? KeychainCrypto.SHA256.hash(certificate.x509.der)
    }
}

/// The exceptions that would make this chain trusted: what an evaluation without exceptions finds wrong with each
/// certificate, bound to that certificate. For `SecTrustSetExceptions` on a later evaluation of the same chain,
/// once the user has chosen to trust it.
/// - Parameter trust: the object.
/// - Returns: the exceptions, opaque data to store and give back.
public func SecTrustCopyExceptions(_ trust: SecTrust) -> CFData? {
    var settings = trust.state.withLock { $0.settings }
    settings.exceptions = nil
    let evaluation = TrustEvaluation(settings: settings)
    return TrustExceptions(chain: evaluation.chain, failures: evaluation.failures).encoded as NSData
}

/// Sets exceptions made by `SecTrustCopyExceptions`: later evaluations accept the failures they record, on the
/// certificates they were made for.
/// - Parameters:
///   - trust: the object.
///   - exceptions: the exceptions, or nil to remove any.
/// - Returns: whether they were made for this trust's leaf certificate; when not (or nil, or data of another
///   kind), the trust keeps no exceptions.
public func SecTrustSetExceptions(_ trust: SecTrust, _ exceptions: CFData?) -> Bool {
    let leaf = trust.state.withLock { $0.settings.certificates[0] }
    let decoded = (exceptions as Data?).flatMap(TrustExceptions.init(encoded:))
    let kept = decoded.flatMap { $0.apply(toLeaf: leaf) ? $0 : nil }
    trust.update { $0.exceptions = kept }
    return kept != nil
}
