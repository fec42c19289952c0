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
}
