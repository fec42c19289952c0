/// What an item holds as its value: secret bytes for the password classes, or a key's or a certificate's
/// external representation. Requests and results carry one; only `.secret` is stored yet (an add or update
/// with another kind answers errSecUnimplemented).
public enum ItemValue: Sendable {
    /// Secret bytes (`kSecValueData`), in wiped-on-free memory.
    case secret(Secret)
    /// A key (`SecKey`) as its external representation and what is needed to rebuild it.
    case key(KeyValue)
    /// A certificate (`SecCertificate`) as its DER bytes.
    case certificate(CertificateValue)

    /// The secret bytes of a `.secret` value; nil for the other kinds.
    public var secret: Secret? {
        if case .secret(let secret) = self { return secret }
        return nil
    }

    /// The kind's name, for reasons (never the value).
    public var kindName: String {
        switch self {
        case .secret: "secret"
        case .key: "key"
        case .certificate: "certificate"
        }
    }
}

/// A key's value: what `SecKeyCopyExternalRepresentation` gives and `SecKeyCreateWithData` takes back.
public struct KeyValue: Sendable {
    /// The key's algorithm family (`kSecAttrKeyType`: "73" for EC, "42" for RSA, as Apple's constants).
    public var keyType: String
    /// Public, private or symmetric (`kSecAttrKeyClass`: "0", "1", "2").
    public var keyClass: String
    public var sizeInBits: Int
    /// The external representation; a private or symmetric key's is secret, so it lives in wiped memory.
    public var externalRepresentation: Secret

    public init(keyType: String, keyClass: String, sizeInBits: Int, externalRepresentation: Secret) {
        self.keyType = keyType
        self.keyClass = keyClass
        self.sizeInBits = sizeInBits
        self.externalRepresentation = externalRepresentation
    }
}

/// A certificate's value: its DER encoding, as `SecCertificateCopyData` gives it.
public struct CertificateValue: Sendable, Hashable {
    public var derBytes: [UInt8]

    public init(derBytes: [UInt8]) { self.derBytes = derBytes }
}

extension ItemValue {
    /// Refuses a value the engine cannot store yet. - Throws: errSecUnimplemented naming the kind.
    typealias Reason = KeychainError.Reason

    static func requireSecret(_ value: ItemValue?, in operation: KeychainError.Reason) throws {
        guard let value, value.secret == nil else { return }
        let kind: KeychainError.Reason =
            switch value {
            case .secret: Reason("secret")
            case .key: Reason("key")
            case .certificate: Reason("certificate")
            }
        throw KeychainError.unimplemented.because(
            "\(operation) with a \(kind) value (kSecValueRef) is not supported yet: only secret data "
                + "(kSecValueData) is stored; nothing was changed")
    }
}
