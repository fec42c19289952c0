/// An item attribute, named by Apple's raw `kSecAttr…` string ("acct", "svce", …).
public struct AttributeKey: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }
    public static func < (lhs: AttributeKey, rhs: AttributeKey) -> Bool { lhs.rawValue < rhs.rawValue }

    public static let account = AttributeKey("acct")
    public static let service = AttributeKey("svce")
    public static let generic = AttributeKey("gena")
    public static let label = AttributeKey("labl")
    public static let description = AttributeKey("desc")
    public static let comment = AttributeKey("icmt")
    public static let creator = AttributeKey("crtr")
    public static let type = AttributeKey("type")
    public static let isInvisible = AttributeKey("invi")
    public static let isNegative = AttributeKey("nega")
    public static let server = AttributeKey("srvr")
    public static let securityDomain = AttributeKey("sdmn")
    public static let `protocol` = AttributeKey("ptcl")
    public static let authenticationType = AttributeKey("atyp")
    public static let port = AttributeKey("port")
    public static let path = AttributeKey("path")
    public static let accessGroup = AttributeKey("agrp")
    public static let synchronizable = AttributeKey("sync")
    public static let accessible = AttributeKey("pdmn")
    public static let creationDate = AttributeKey("cdat")
    public static let modificationDate = AttributeKey("mdat")
    public static let alias = AttributeKey("alis")

    // Keys (`kSecClassKey`).
    public static let keyClass = AttributeKey("kcls")
    public static let applicationLabel = AttributeKey("klbl")
    public static let applicationTag = AttributeKey("atag")
    public static let keyType = AttributeKey("type")
    public static let keySizeInBits = AttributeKey("bsiz")
    public static let effectiveKeySize = AttributeKey("esiz")
    public static let isPermanent = AttributeKey("perm")
    public static let isPrivate = AttributeKey("priv")
    public static let isModifiable = AttributeKey("modi")
    public static let isSensitive = AttributeKey("sens")
    public static let wasAlwaysSensitive = AttributeKey("asen")
    public static let isExtractable = AttributeKey("extr")
    public static let wasNeverExtractable = AttributeKey("next")
    public static let canEncrypt = AttributeKey("encr")
    public static let canDecrypt = AttributeKey("decr")
    public static let canDerive = AttributeKey("drve")
    public static let canSign = AttributeKey("sign")
    public static let canVerify = AttributeKey("vrfy")
    public static let canSignRecover = AttributeKey("snrc")
    public static let canVerifyRecover = AttributeKey("vyrc")
    public static let canWrap = AttributeKey("wrap")
    public static let canUnwrap = AttributeKey("unwp")
    /// `kSecAttrTokenID`: the token that holds the key (`com.apple.setoken`, the Secure Enclave); its value is
    /// bound to this machine's enclave.
    public static let tokenID = AttributeKey("tkid")

    // Certificates (`kSecClassCertificate`).
    public static let certificateType = AttributeKey("ctyp")
    public static let certificateEncoding = AttributeKey("cenc")
    public static let subject = AttributeKey("subj")
    public static let issuer = AttributeKey("issr")
    public static let serialNumber = AttributeKey("slnr")
    public static let subjectKeyID = AttributeKey("skid")
    public static let publicKeyHash = AttributeKey("pkhh")
}
