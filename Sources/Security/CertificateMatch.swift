import Foundation
import KeychainCore
import X509Certificates

/// The certificate search keys of a query (Apple's "Search Attribute Keys and Values"), read and checked, with
/// `kSecMatchItemList` and `kSecMatchHostOrSubdomainOfHost`. The engine does not parse certificates or compare
/// host names by suffix (it finds attributes by keyed digest), so `SecItemCopyMatching` applies these keys here, to
/// the items the engine found (`CertificateMatchSearch`).
struct CertificateMatch {
    /// One of the `kSecMatchSubject…` keys: a string the subject's common name must contain, start or end with,
    /// or be.
    enum SubjectTest {
        case contains(String)
        case startsWith(String)
        case endsWith(String)
        case wholeString(String)
    }

    /// One element of `kSecMatchItemList`.
    enum ListedItem {
        case certificate(SecCertificate)
        case identity(SecIdentity)
        case key(SecKey)
        case persistentReference(PersistentReference)
    }

    /// `kSecMatchIssuers`: the names, normalized without their SEQUENCE header (as `issr` is stored).
    var issuers: Set<[UInt8]>?
    var emailAddress: String?
    var subjectTests: [SubjectTest] = []
    var validOnDate: Date?
    var policy: SecPolicy?
    var trustedOnly = false
    var itemList: [ListedItem]?
    /// `kSecMatchHostOrSubdomainOfHost`: the host an internet password's server must be, or be a subdomain of.
    var hostOrSubdomain: String?
    /// The keys given, as the caller spelled them, for reasons.
    var keys: [String] = []

    /// Whether a certificate key was given at all.
    var isEmpty: Bool { keys.isEmpty }

    /// Whether a key needs each item's certificate (every one but `kSecMatchItemList`).
    var readsCertificates: Bool {
        issuers != nil || emailAddress != nil || !subjectTests.isEmpty || validOnDate != nil || policy != nil
            || trustedOnly
    }

    /// The keys Apple's keychain refuses on a class other than certificates and identities
    /// (`errSecUnsupportedOperation`, which is `errSecUnimplemented`); the others are ignored there.
    var certificateOnlyKeys: [String] {
        keys.filter { $0 == "m_Issuers" || $0 == "m_Policy" }
    }

    /// The raw keys this type reads.
    static let rawKeys: Set<String> = [
        "m_Issuers", "m_EmailAddressIfPresent", "m_SubjectContains", "m_SubjectStartsWith", "m_SubjectEndsWith",
        "m_SubjectWholeString", "m_ValidOnDate", "m_Policy", "m_TrustedOnly", "m_ItemList", "m_HostOrSubdomainOfHost",
    ]

    /// Whether an internet password's server passes `kSecMatchHostOrSubdomainOfHost`: the host itself, or a name
    /// that ends with a dot and the host, compared as securityd does (exactly, case included). Without the key,
    /// every item passes.
    func admitsServer(_ server: AttributeValue?) -> Bool {
        guard let host = hostOrSubdomain else { return true }
        guard case .string(let name)? = server else { return false }
        return name == host || name.hasSuffix("." + host)
    }

    /// Reads `value` as the value of `key`. - Throws: errSecParam for a value of the wrong type.
    mutating func read(_ key: String, value: Any) throws {
        keys.append(key)
        switch key {
        case "m_Issuers": issuers = try Self.issuers(value)
        case "m_EmailAddressIfPresent": emailAddress = try Self.string(value, key)
        case "m_SubjectContains": subjectTests.append(.contains(try Self.string(value, key)))
        case "m_SubjectStartsWith": subjectTests.append(.startsWith(try Self.string(value, key)))
        case "m_SubjectEndsWith": subjectTests.append(.endsWith(try Self.string(value, key)))
        case "m_SubjectWholeString": subjectTests.append(.wholeString(try Self.string(value, key)))
        case "m_ValidOnDate":
            if value is NSNull {
                validOnDate = Date()
            } else if let date = value as? Date {
                // A date no certificate field can hold (NaN included) is refused before any check converts it.
                guard AttributeValue.isValidDate(date) else {
                    throw KeychainError.param.because("kSecMatchValidOnDate is not a date between the years 0 and 9999")
                }
                validOnDate = date
            } else {
                throw KeychainError.param.because(
                    "kSecMatchValidOnDate must be a date or kCFNull (now), not \(String(describing: type(of: value)))")
            }
        case "m_Policy":
            guard let policy = value as? SecPolicy else {
                throw KeychainError.param.because(
                    "kSecMatchPolicy must be one SecPolicy, not \(String(describing: type(of: value)))")
            }
            self.policy = policy
        case "m_TrustedOnly": trustedOnly = try SecDictionary.boolean(value, key)
        case "m_HostOrSubdomainOfHost": hostOrSubdomain = try Self.string(value, key)
        default: itemList = try Self.itemList(value)
        }
    }

    private static func string(_ value: Any, _ key: String) throws -> String {
        guard let text = SecDictionary.string(value) else {
            throw KeychainError.param.because("\(key) must be a string, not \(String(describing: type(of: value)))")
        }
        return text
    }

    /// The names of `kSecMatchIssuers`, normalized as Apple compares them.
    private static func issuers(_ value: Any) throws -> Set<[UInt8]> {
        let wrong = KeychainError.param.because("kSecMatchIssuers must be an array of DER-encoded distinguished names")
        guard let array = value as? [Any] else { throw wrong }
        guard !array.isEmpty else {
            throw KeychainError.param.because("kSecMatchIssuers is an empty array: no issuer could match")
        }
        var names: Set<[UInt8]> = []
        for element in array {
            guard let bytes = SecDictionary.bytes(element),
                let normalized = DistinguishedName(der: bytes).normalizedContent
            else { throw wrong }
            names.insert(normalized)
        }
        return names
    }

    /// The elements of `kSecMatchItemList`.
    private static func itemList(_ value: Any) throws -> [ListedItem] {
        let wrong = KeychainError.param.because(
            "kSecMatchItemList must be an array of SecCertificate, SecIdentity, SecKey or persistent references")
        guard let array = value as? [Any] else { throw wrong }
        return try array.map { element in
            if let certificate = element as? SecCertificate { return .certificate(certificate) }
            if let identity = element as? SecIdentity { return .identity(identity) }
            if let key = element as? SecKey { return .key(key) }
            guard let bytes = SecDictionary.bytes(element), let reference = PersistentReference(bytes: bytes) else {
                throw wrong
            }
            return .persistentReference(reference)
        }
    }
}
