/// What an item holds as its value: secret bytes for the password classes, or a key's or a certificate's
/// external representation. Requests and results carry one; each class stores one kind (its descriptor's
/// `valueKind`).
public enum ItemValue: Sendable {
    /// Secret bytes (`kSecValueData`), in wiped-on-free memory.
    case secret(Secret)
    /// A key (`SecKey`) as its external representation and what is needed to rebuild it.
    case key(KeyValue)
    /// A certificate (`SecCertificate`) as its DER bytes.
    case certificate(CertificateValue)
    /// An identity (`SecIdentity`): a certificate and its private key, the value of the joined identity class.
    case identity(IdentityValue)

    /// The secret bytes of a `.secret` value; nil for the other kinds.
    public var secret: Secret? {
        if case .secret(let secret) = self { return secret }
        return nil
    }

    /// The number of bytes the value holds.
    public var byteCount: Int {
        switch self {
        case .secret(let secret): secret.count
        case .key(let key): key.externalRepresentation.count
        case .certificate(let certificate): certificate.derBytes.count
        case .identity(let identity): identity.certificate.derBytes.count + identity.key.externalRepresentation.count
        }
    }

    /// The kind's name inside a reason, so that it is worded in the reader's language.
    var kindReason: KeychainError.Reason {
        switch self {
        case .secret: KeychainError.Reason("secret")
        case .key: KeychainError.Reason("key")
        case .certificate: KeychainError.Reason("certificate")
        case .identity: KeychainError.Reason("identity")
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
    /// The bytes an item of this value keeps in its sealed secret column: the secret, the key's external
    /// representation or the certificate's DER.
    var storedBytes: [UInt8] {
        switch self {
        case .secret(let secret): secret.bytes
        case .key(let key): key.externalRepresentation.bytes
        case .certificate(let certificate): certificate.derBytes
        // An identity is never stored as one item; its halves are.
        case .identity: []
        }
    }

    /// ``storedBytes`` in wiped-on-free memory, sharing the secret's or the key's own (no plain copy).
    var storedSecret: Secret {
        switch self {
        case .secret(let secret): secret
        case .key(let key): key.externalRepresentation
        case .certificate(let certificate): Secret(certificate.derBytes)
        case .identity: Secret([])
        }
    }

    /// The number of bytes of ``storedBytes``, without copying them.
    var storedByteCount: Int {
        if case .identity = self { return 0 }
        return byteCount
    }

    /// Whether this value is of the kind `kind`.
    func isKind(_ kind: ClassSchema.ValueKind) -> Bool {
        switch (self, kind) {
        case (.secret, .secret), (.key, .key), (.certificate, .certificate), (.identity, .identity): true
        default: false
        }
    }

    /// Refuses a value of another kind than the class stores. - Throws: errSecParam naming both kinds.
    static func check(_ value: ItemValue?, for schema: ClassSchema, in operation: KeychainError.Reason) throws {
        guard let value, !value.isKind(schema.valueKind) else { return }
        let wanted: KeychainError.Reason =
            switch schema.valueKind {
            case .secret: KeychainError.Reason("secret data (kSecValueData)")
            case .key: KeychainError.Reason("a key (kSecValueRef with a SecKey)")
            case .certificate:
                KeychainError.Reason("a certificate (kSecValueRef with a SecCertificate, or its DER as kSecValueData)")
            case .identity: KeychainError.Reason("an identity (kSecValueRef with a SecIdentity)")
            }
        throw KeychainError.param.because(
            "\(operation) of class \(schema.itemClass.rawValue) with a \(value.kindReason) value: the class holds "
                + "\(wanted); nothing was changed")
    }
}
