/// `find-certificate [-a] [-c name] [-e email] [-m] [-p] [-Z]`.
public struct FindCertificateCommand: Equatable, Sendable {
    /// `-a`: every match, not only the first.
    public var all = false
    /// `-c`: the label (subject summary) contains this, ignoring case.
    public var name: String?
    /// `-e`: one of the certificate's e-mail addresses is this, ignoring case.
    public var email: String?
    /// `-m`: print the e-mail addresses.
    public var showEmails = false
    /// `-p`: print the certificate as PEM instead of its attributes.
    public var pem = false
    /// `-Z`: print the SHA-256 and SHA-1 hashes.
    public var hashes = false

    public init() {}
}

/// `delete-certificate` and `delete-identity`: `-c name` or `-Z hash` chooses one certificate.
public struct DeleteCertificateCommand: Equatable, Sendable {
    public var name: String?
    /// SHA-1 (40 hex digits) or SHA-256 (64) of the certificate.
    public var hash: String?
    /// `delete-identity`: the private key goes too.
    public var identity = false

    public init(identity: Bool = false) { self.identity = identity }
}

/// `find-identity [-p policy] [-s string] [-v]`.
public struct FindIdentityCommand: Equatable, Sendable {
    public enum Policy: String, Equatable, Sendable, CaseIterable {
        case basic
        case sslClient = "ssl-client"
        case sslServer = "ssl-server"
    }

    public var policy = Policy.basic
    /// `-s`: with ssl-server, the host name; else the label contains this.
    public var string: String?
    /// `-v`: only identities whose certificate is trusted for the policy.
    public var validOnly = false

    public init() {}
}

/// `import FILE [-t type] [-f format] [-P passphrase] [-k keychain] …`.
public struct ImportCommand: Equatable, Sendable {
    public var file: String
    /// `-P`: the PKCS#12 passphrase; nil asks for it when the file is PKCS#12.
    public var passphrase: PasscodeInput?
    /// `-t`: cert, pub, priv, session, agg; only a hint here (the contents decide).
    public var type: String?
    /// `-f`: the format macOS names; a hint here, the bytes decide.
    public var format: String?

    public init(file: String) { self.file = file }
}

/// `export [-t type] [-f format] [-p] [-P passphrase] [-o file]`.
public struct ExportCommand: Equatable, Sendable {
    public enum ItemType: String, Equatable, Sendable, CaseIterable {
        case certs, privKeys, identities, all
    }

    public enum Format: String, Equatable, Sendable, CaseIterable {
        case pemseq, pkcs12
    }

    public var type = ItemType.all
    /// nil: pemseq, or pkcs12 for identities.
    public var format: Format?
    public var passphrase: PasscodeInput?
    /// `-o`: the file to write (a new one); nil writes standard output.
    public var outputFile: String?

    public init() {}

    var effectiveFormat: Format { format ?? (type == .identities ? .pkcs12 : .pemseq) }
}

/// `create-keypair [-a alg] [-s size] name`.
public struct CreateKeypairCommand: Equatable, Sendable {
    public enum Algorithm: String, Equatable, Sendable, CaseIterable {
        case rsa, ecc
    }

    public var algorithm = Algorithm.rsa
    public var size: Int?
    /// The keys' label.
    public var name: String

    public init(name: String) { self.name = name }
}
