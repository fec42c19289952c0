import Foundation

// Apple's SecItem.h constants with Apple's raw strings. Each is a `SecConstant` (an NSString that bridges and
// hashes like a Swift String), declared `nonisolated(unsafe)` because NSString is not Sendable on Linux; they
// are immutable.

// MARK: - Item classes (`kSecClass` and its values)

/// Apple's constant with the raw value "class".
nonisolated(unsafe) public let kSecClass: CFString = SecConstant("class")
/// Apple's constant with the raw value "genp".
nonisolated(unsafe) public let kSecClassGenericPassword: CFString = SecConstant("genp")
/// Apple's constant with the raw value "inet".
nonisolated(unsafe) public let kSecClassInternetPassword: CFString = SecConstant("inet")
/// Apple's constant with the raw value "cert".
nonisolated(unsafe) public let kSecClassCertificate: CFString = SecConstant("cert")
/// Apple's constant with the raw value "keys".
nonisolated(unsafe) public let kSecClassKey: CFString = SecConstant("keys")
/// Apple's constant with the raw value "idnt".
nonisolated(unsafe) public let kSecClassIdentity: CFString = SecConstant("idnt")

// MARK: - Item attributes

/// Apple's constant with the raw value "pdmn".
nonisolated(unsafe) public let kSecAttrAccessible: CFString = SecConstant("pdmn")
/// Apple's constant with the raw value "accc".
nonisolated(unsafe) public let kSecAttrAccessControl: CFString = SecConstant("accc")
/// Apple's constant with the raw value "agrp".
nonisolated(unsafe) public let kSecAttrAccessGroup: CFString = SecConstant("agrp")
/// Apple's constant with the raw value "sync".
nonisolated(unsafe) public let kSecAttrSynchronizable: CFString = SecConstant("sync")
/// Apple's constant with the raw value "cdat".
nonisolated(unsafe) public let kSecAttrCreationDate: CFString = SecConstant("cdat")
/// Apple's constant with the raw value "mdat".
nonisolated(unsafe) public let kSecAttrModificationDate: CFString = SecConstant("mdat")
/// Apple's constant with the raw value "desc".
nonisolated(unsafe) public let kSecAttrDescription: CFString = SecConstant("desc")
/// Apple's constant with the raw value "icmt".
nonisolated(unsafe) public let kSecAttrComment: CFString = SecConstant("icmt")
/// Apple's constant with the raw value "crtr".
nonisolated(unsafe) public let kSecAttrCreator: CFString = SecConstant("crtr")
/// Apple's constant with the raw value "type".
nonisolated(unsafe) public let kSecAttrType: CFString = SecConstant("type")
/// Apple's constant with the raw value "labl".
nonisolated(unsafe) public let kSecAttrLabel: CFString = SecConstant("labl")
/// Apple's constant with the raw value "invi".
nonisolated(unsafe) public let kSecAttrIsInvisible: CFString = SecConstant("invi")
/// Apple's constant with the raw value "nega".
nonisolated(unsafe) public let kSecAttrIsNegative: CFString = SecConstant("nega")
/// Apple's constant with the raw value "acct".
nonisolated(unsafe) public let kSecAttrAccount: CFString = SecConstant("acct")
/// Apple's constant with the raw value "svce".
nonisolated(unsafe) public let kSecAttrService: CFString = SecConstant("svce")
/// Apple's constant with the raw value "gena".
nonisolated(unsafe) public let kSecAttrGeneric: CFString = SecConstant("gena")
/// Apple's constant with the raw value "sdmn".
nonisolated(unsafe) public let kSecAttrSecurityDomain: CFString = SecConstant("sdmn")
/// Apple's constant with the raw value "srvr".
nonisolated(unsafe) public let kSecAttrServer: CFString = SecConstant("srvr")
/// Apple's constant with the raw value "ptcl".
nonisolated(unsafe) public let kSecAttrProtocol: CFString = SecConstant("ptcl")
/// Apple's constant with the raw value "atyp".
nonisolated(unsafe) public let kSecAttrAuthenticationType: CFString = SecConstant("atyp")
/// Apple's constant with the raw value "port".
nonisolated(unsafe) public let kSecAttrPort: CFString = SecConstant("port")
/// Apple's constant with the raw value "path".
nonisolated(unsafe) public let kSecAttrPath: CFString = SecConstant("path")
/// Apple's constant with the raw value "subj".
nonisolated(unsafe) public let kSecAttrSubject: CFString = SecConstant("subj")
/// Apple's constant with the raw value "issr".
nonisolated(unsafe) public let kSecAttrIssuer: CFString = SecConstant("issr")
/// Apple's constant with the raw value "slnr".
nonisolated(unsafe) public let kSecAttrSerialNumber: CFString = SecConstant("slnr")
/// Apple's constant with the raw value "skid".
nonisolated(unsafe) public let kSecAttrSubjectKeyID: CFString = SecConstant("skid")
/// Apple's constant with the raw value "pkhh".
nonisolated(unsafe) public let kSecAttrPublicKeyHash: CFString = SecConstant("pkhh")
/// Apple's constant with the raw value "ctyp".
nonisolated(unsafe) public let kSecAttrCertificateType: CFString = SecConstant("ctyp")
/// Apple's constant with the raw value "cenc".
nonisolated(unsafe) public let kSecAttrCertificateEncoding: CFString = SecConstant("cenc")
/// Apple's constant with the raw value "kcls".
nonisolated(unsafe) public let kSecAttrKeyClass: CFString = SecConstant("kcls")
/// Apple's constant with the raw value "klbl".
nonisolated(unsafe) public let kSecAttrApplicationLabel: CFString = SecConstant("klbl")
/// Apple's constant with the raw value "perm".
nonisolated(unsafe) public let kSecAttrIsPermanent: CFString = SecConstant("perm")
/// Apple's constant with the raw value "sens".
nonisolated(unsafe) public let kSecAttrIsSensitive: CFString = SecConstant("sens")
/// Apple's constant with the raw value "extr".
nonisolated(unsafe) public let kSecAttrIsExtractable: CFString = SecConstant("extr")
/// Apple's constant with the raw value "atag".
nonisolated(unsafe) public let kSecAttrApplicationTag: CFString = SecConstant("atag")
/// Apple's constant with the raw value "type".
nonisolated(unsafe) public let kSecAttrKeyType: CFString = SecConstant("type")
/// Apple's constant with the raw value "prf".
nonisolated(unsafe) public let kSecAttrPRF: CFString = SecConstant("prf")
/// Apple's constant with the raw value "salt".
nonisolated(unsafe) public let kSecAttrSalt: CFString = SecConstant("salt")
/// Apple's constant with the raw value "rounds".
nonisolated(unsafe) public let kSecAttrRounds: CFString = SecConstant("rounds")
/// Apple's constant with the raw value "bsiz".
nonisolated(unsafe) public let kSecAttrKeySizeInBits: CFString = SecConstant("bsiz")
/// Apple's constant with the raw value "esiz".
nonisolated(unsafe) public let kSecAttrEffectiveKeySize: CFString = SecConstant("esiz")
/// Apple's constant with the raw value "encr".
nonisolated(unsafe) public let kSecAttrCanEncrypt: CFString = SecConstant("encr")
/// Apple's constant with the raw value "decr".
nonisolated(unsafe) public let kSecAttrCanDecrypt: CFString = SecConstant("decr")
/// Apple's constant with the raw value "drve".
nonisolated(unsafe) public let kSecAttrCanDerive: CFString = SecConstant("drve")
/// Apple's constant with the raw value "sign".
nonisolated(unsafe) public let kSecAttrCanSign: CFString = SecConstant("sign")
/// Apple's constant with the raw value "vrfy".
nonisolated(unsafe) public let kSecAttrCanVerify: CFString = SecConstant("vrfy")
/// Apple's constant with the raw value "wrap".
nonisolated(unsafe) public let kSecAttrCanWrap: CFString = SecConstant("wrap")
/// Apple's constant with the raw value "unwp".
nonisolated(unsafe) public let kSecAttrCanUnwrap: CFString = SecConstant("unwp")
/// Apple's constant with the raw value "vwht".
nonisolated(unsafe) public let kSecAttrSyncViewHint: CFString = SecConstant("vwht")
/// Apple's constant with the raw value "tkid".
nonisolated(unsafe) public let kSecAttrTokenID: CFString = SecConstant("tkid")
/// Apple's constant with the raw value "persistref".
nonisolated(unsafe) public let kSecAttrPersistantReference: CFString = SecConstant("persistref")
/// Apple's constant with the raw value "persistref".
nonisolated(unsafe) public let kSecAttrPersistentReference: CFString = SecConstant("persistref")
/// Apple's constant with the raw value "sdat".
nonisolated(unsafe) public let kSecAttrStartDate: CFString = SecConstant("sdat")
/// Apple's constant with the raw value "edat".
nonisolated(unsafe) public let kSecAttrEndDate: CFString = SecConstant("edat")
/// Apple's constant with the raw value "alis".
nonisolated(unsafe) public let kSecAttrAlias: CFString = SecConstant("alis")

// MARK: - `kSecAttrSynchronizable` in a query: match synchronizable and local items

/// Apple's constant with the raw value "syna".
nonisolated(unsafe) public let kSecAttrSynchronizableAny: CFString = SecConstant("syna")
/// The access group of the items of external tokens (smart cards), readable by every app without an entitlement
/// and written by none; no token provides items here, so a search of it finds nothing.
nonisolated(unsafe) public let kSecAttrAccessGroupToken: CFString = SecConstant("com.apple.token")

// MARK: - `kSecAttrAccessible` values (data protection classes)

/// Apple's constant with the raw value "ak".
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlocked: CFString = SecConstant("ak")
/// Apple's constant with the raw value "ck".
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlock: CFString = SecConstant("ck")
/// Apple's constant with the raw value "dk".
nonisolated(unsafe) public let kSecAttrAccessibleAlways: CFString = SecConstant("dk")
/// Apple's constant with the raw value "aku".
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString = SecConstant("aku")
/// Apple's constant with the raw value "cku".
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = SecConstant("cku")
/// Apple's constant with the raw value "dku".
nonisolated(unsafe) public let kSecAttrAccessibleAlwaysThisDeviceOnly: CFString = SecConstant("dku")
/// Apple's constant with the raw value "akpu".
nonisolated(unsafe) public let kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString = SecConstant("akpu")

// MARK: - `kSecAttrProtocol` values

/// Apple's constant with the raw value "ftp ".
nonisolated(unsafe) public let kSecAttrProtocolFTP: CFString = SecConstant("ftp ")
/// Apple's constant with the raw value "ftpa".
nonisolated(unsafe) public let kSecAttrProtocolFTPAccount: CFString = SecConstant("ftpa")
/// Apple's constant with the raw value "http".
nonisolated(unsafe) public let kSecAttrProtocolHTTP: CFString = SecConstant("http")
/// Apple's constant with the raw value "irc ".
nonisolated(unsafe) public let kSecAttrProtocolIRC: CFString = SecConstant("irc ")
/// Apple's constant with the raw value "nntp".
nonisolated(unsafe) public let kSecAttrProtocolNNTP: CFString = SecConstant("nntp")
/// Apple's constant with the raw value "pop3".
nonisolated(unsafe) public let kSecAttrProtocolPOP3: CFString = SecConstant("pop3")
/// Apple's constant with the raw value "smtp".
nonisolated(unsafe) public let kSecAttrProtocolSMTP: CFString = SecConstant("smtp")
/// Apple's constant with the raw value "sox ".
nonisolated(unsafe) public let kSecAttrProtocolSOCKS: CFString = SecConstant("sox ")
/// Apple's constant with the raw value "imap".
nonisolated(unsafe) public let kSecAttrProtocolIMAP: CFString = SecConstant("imap")
/// Apple's constant with the raw value "ldap".
nonisolated(unsafe) public let kSecAttrProtocolLDAP: CFString = SecConstant("ldap")
/// Apple's constant with the raw value "atlk".
nonisolated(unsafe) public let kSecAttrProtocolAppleTalk: CFString = SecConstant("atlk")
/// Apple's constant with the raw value "afp ".
nonisolated(unsafe) public let kSecAttrProtocolAFP: CFString = SecConstant("afp ")
/// Apple's constant with the raw value "teln".
nonisolated(unsafe) public let kSecAttrProtocolTelnet: CFString = SecConstant("teln")
/// Apple's constant with the raw value "ssh ".
nonisolated(unsafe) public let kSecAttrProtocolSSH: CFString = SecConstant("ssh ")
/// Apple's constant with the raw value "ftps".
nonisolated(unsafe) public let kSecAttrProtocolFTPS: CFString = SecConstant("ftps")
/// Apple's constant with the raw value "htps".
nonisolated(unsafe) public let kSecAttrProtocolHTTPS: CFString = SecConstant("htps")
/// Apple's constant with the raw value "htpx".
nonisolated(unsafe) public let kSecAttrProtocolHTTPProxy: CFString = SecConstant("htpx")
/// Apple's constant with the raw value "htsx".
nonisolated(unsafe) public let kSecAttrProtocolHTTPSProxy: CFString = SecConstant("htsx")
/// Apple's constant with the raw value "ftpx".
nonisolated(unsafe) public let kSecAttrProtocolFTPProxy: CFString = SecConstant("ftpx")
/// Apple's constant with the raw value "smb ".
nonisolated(unsafe) public let kSecAttrProtocolSMB: CFString = SecConstant("smb ")
/// Apple's constant with the raw value "rtsp".
nonisolated(unsafe) public let kSecAttrProtocolRTSP: CFString = SecConstant("rtsp")
/// Apple's constant with the raw value "rtsx".
nonisolated(unsafe) public let kSecAttrProtocolRTSPProxy: CFString = SecConstant("rtsx")
/// Apple's constant with the raw value "daap".
nonisolated(unsafe) public let kSecAttrProtocolDAAP: CFString = SecConstant("daap")
/// Apple's constant with the raw value "eppc".
nonisolated(unsafe) public let kSecAttrProtocolEPPC: CFString = SecConstant("eppc")
/// Apple's constant with the raw value "ipp ".
nonisolated(unsafe) public let kSecAttrProtocolIPP: CFString = SecConstant("ipp ")
/// Apple's constant with the raw value "ntps".
nonisolated(unsafe) public let kSecAttrProtocolNNTPS: CFString = SecConstant("ntps")
/// Apple's constant with the raw value "ldps".
nonisolated(unsafe) public let kSecAttrProtocolLDAPS: CFString = SecConstant("ldps")
/// Apple's constant with the raw value "tels".
nonisolated(unsafe) public let kSecAttrProtocolTelnetS: CFString = SecConstant("tels")
/// Apple's constant with the raw value "imps".
nonisolated(unsafe) public let kSecAttrProtocolIMAPS: CFString = SecConstant("imps")
/// Apple's constant with the raw value "ircs".
nonisolated(unsafe) public let kSecAttrProtocolIRCS: CFString = SecConstant("ircs")
/// Apple's constant with the raw value "pops".
nonisolated(unsafe) public let kSecAttrProtocolPOP3S: CFString = SecConstant("pops")
/// Apple's constant with the raw value "cifs".
nonisolated(unsafe) public let kSecAttrProtocolCIFS: CFString = SecConstant("cifs")
/// Apple's constant with the raw value "cvsp".
nonisolated(unsafe) public let kSecAttrProtocolCVSpserver: CFString = SecConstant("cvsp")
/// Apple's constant with the raw value "svn ".
nonisolated(unsafe) public let kSecAttrProtocolSVN: CFString = SecConstant("svn ")

// MARK: - `kSecAttrAuthenticationType` values

/// Apple's constant with the raw value "ntlm".
nonisolated(unsafe) public let kSecAttrAuthenticationTypeNTLM: CFString = SecConstant("ntlm")
/// Apple's constant with the raw value "msna".
nonisolated(unsafe) public let kSecAttrAuthenticationTypeMSN: CFString = SecConstant("msna")
/// Apple's constant with the raw value "dpaa".
nonisolated(unsafe) public let kSecAttrAuthenticationTypeDPA: CFString = SecConstant("dpaa")
/// Apple's constant with the raw value "rpaa".
nonisolated(unsafe) public let kSecAttrAuthenticationTypeRPA: CFString = SecConstant("rpaa")
/// Apple's constant with the raw value "http".
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTTPBasic: CFString = SecConstant("http")
/// Apple's constant with the raw value "httd".
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTTPDigest: CFString = SecConstant("httd")
/// Apple's constant with the raw value "form".
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTMLForm: CFString = SecConstant("form")
/// Apple's constant with the raw value "dflt".
nonisolated(unsafe) public let kSecAttrAuthenticationTypeDefault: CFString = SecConstant("dflt")

// MARK: - Key attribute values

/// Apple's constant with the raw value "42".
nonisolated(unsafe) public let kSecAttrKeyTypeRSA: CFString = SecConstant("42")
/// Apple's constant with the raw value "43".
nonisolated(unsafe) public let kSecAttrKeyTypeDSA: CFString = SecConstant("43")
/// Apple's constant with the raw value "2147483649".
nonisolated(unsafe) public let kSecAttrKeyTypeAES: CFString = SecConstant("2147483649")
/// Apple's constant with the raw value "73".
nonisolated(unsafe) public let kSecAttrKeyTypeEC: CFString = SecConstant("73")
/// Apple's constant with the raw value "73".
nonisolated(unsafe) public let kSecAttrKeyTypeECSECPrimeRandom: CFString = SecConstant("73")
/// Apple's constant with the raw value "0".
nonisolated(unsafe) public let kSecAttrKeyClassPublic: CFString = SecConstant("0")
/// Apple's constant with the raw value "1".
nonisolated(unsafe) public let kSecAttrKeyClassPrivate: CFString = SecConstant("1")
/// Apple's constant with the raw value "2".
nonisolated(unsafe) public let kSecAttrKeyClassSymmetric: CFString = SecConstant("2")
/// Apple's constant with the raw value "com.apple.setoken".
nonisolated(unsafe) public let kSecAttrTokenIDSecureEnclave: CFString = SecConstant("com.apple.setoken")

// MARK: - Search properties

/// Apple's constant with the raw value "m_Policy".
nonisolated(unsafe) public let kSecMatchPolicy: CFString = SecConstant("m_Policy")
/// Apple's constant with the raw value "m_ItemList".
nonisolated(unsafe) public let kSecMatchItemList: CFString = SecConstant("m_ItemList")
/// Apple's constant with the raw value "m_SearchList".
nonisolated(unsafe) public let kSecMatchSearchList: CFString = SecConstant("m_SearchList")
/// Apple's constant with the raw value "m_Issuers".
nonisolated(unsafe) public let kSecMatchIssuers: CFString = SecConstant("m_Issuers")
/// Apple's constant with the raw value "m_EmailAddressIfPresent".
nonisolated(unsafe) public let kSecMatchEmailAddressIfPresent: CFString = SecConstant("m_EmailAddressIfPresent")
/// Apple's constant with the raw value "m_SubjectContains".
nonisolated(unsafe) public let kSecMatchSubjectContains: CFString = SecConstant("m_SubjectContains")
/// Apple's constant with the raw value "m_SubjectStartsWith".
nonisolated(unsafe) public let kSecMatchSubjectStartsWith: CFString = SecConstant("m_SubjectStartsWith")
/// Apple's constant with the raw value "m_SubjectEndsWith".
nonisolated(unsafe) public let kSecMatchSubjectEndsWith: CFString = SecConstant("m_SubjectEndsWith")
/// Apple's constant with the raw value "m_SubjectWholeString".
nonisolated(unsafe) public let kSecMatchSubjectWholeString: CFString = SecConstant("m_SubjectWholeString")
/// Apple's constant with the raw value "m_HostOrSubdomainOfHost" (iOS 18, macOS 15).
nonisolated(unsafe) public let kSecMatchHostOrSubdomainOfHost: CFString = SecConstant("m_HostOrSubdomainOfHost")
/// Apple's constant with the raw value "m_CaseInsensitive".
nonisolated(unsafe) public let kSecMatchCaseInsensitive: CFString = SecConstant("m_CaseInsensitive")
/// Apple's constant with the raw value "m_DiacriticInsensitive".
nonisolated(unsafe) public let kSecMatchDiacriticInsensitive: CFString = SecConstant("m_DiacriticInsensitive")
/// Apple's constant with the raw value "m_WidthInsensitive".
nonisolated(unsafe) public let kSecMatchWidthInsensitive: CFString = SecConstant("m_WidthInsensitive")
/// Apple's constant with the raw value "m_TrustedOnly".
nonisolated(unsafe) public let kSecMatchTrustedOnly: CFString = SecConstant("m_TrustedOnly")
/// Apple's constant with the raw value "m_ValidOnDate".
nonisolated(unsafe) public let kSecMatchValidOnDate: CFString = SecConstant("m_ValidOnDate")
/// Apple's constant with the raw value "m_Limit".
nonisolated(unsafe) public let kSecMatchLimit: CFString = SecConstant("m_Limit")
/// Apple's constant with the raw value "m_LimitOne".
nonisolated(unsafe) public let kSecMatchLimitOne: CFString = SecConstant("m_LimitOne")
/// Apple's constant with the raw value "m_LimitAll".
nonisolated(unsafe) public let kSecMatchLimitAll: CFString = SecConstant("m_LimitAll")

// MARK: - Return type properties

/// Apple's constant with the raw value "r_Data".
nonisolated(unsafe) public let kSecReturnData: CFString = SecConstant("r_Data")
/// Apple's constant with the raw value "r_Attributes".
nonisolated(unsafe) public let kSecReturnAttributes: CFString = SecConstant("r_Attributes")
/// Apple's constant with the raw value "r_Ref".
nonisolated(unsafe) public let kSecReturnRef: CFString = SecConstant("r_Ref")
/// Apple's constant with the raw value "r_PersistentRef".
nonisolated(unsafe) public let kSecReturnPersistentRef: CFString = SecConstant("r_PersistentRef")

// MARK: - Value type properties

/// Apple's constant with the raw value "v_Data".
nonisolated(unsafe) public let kSecValueData: CFString = SecConstant("v_Data")
/// Apple's constant with the raw value "v_Ref".
nonisolated(unsafe) public let kSecValueRef: CFString = SecConstant("v_Ref")
/// Apple's constant with the raw value "v_PersistentRef".
nonisolated(unsafe) public let kSecValuePersistentRef: CFString = SecConstant("v_PersistentRef")

// MARK: - Other properties (`kSecUse…`)

/// Apple's constant with the raw value "u_ItemList".
nonisolated(unsafe) public let kSecUseItemList: CFString = SecConstant("u_ItemList")
/// Apple's constant with the raw value "u_Keychain".
nonisolated(unsafe) public let kSecUseKeychain: CFString = SecConstant("u_Keychain")
/// Apple's constant with the raw value "u_OpPrompt".
nonisolated(unsafe) public let kSecUseOperationPrompt: CFString = SecConstant("u_OpPrompt")
/// Apple's constant with the raw value "u_NoAuthUI".
nonisolated(unsafe) public let kSecUseNoAuthenticationUI: CFString = SecConstant("u_NoAuthUI")
/// Apple's constant with the raw value "u_AuthUI".
nonisolated(unsafe) public let kSecUseAuthenticationUI: CFString = SecConstant("u_AuthUI")
/// Apple's constant with the raw value "u_AuthUIA".
nonisolated(unsafe) public let kSecUseAuthenticationUIAllow: CFString = SecConstant("u_AuthUIA")
/// Apple's constant with the raw value "u_AuthUIF".
nonisolated(unsafe) public let kSecUseAuthenticationUIFail: CFString = SecConstant("u_AuthUIF")
/// Apple's constant with the raw value "u_AuthUIS".
nonisolated(unsafe) public let kSecUseAuthenticationUISkip: CFString = SecConstant("u_AuthUIS")
/// Apple's constant with the raw value "u_AuthCtx".
nonisolated(unsafe) public let kSecUseAuthenticationContext: CFString = SecConstant("u_AuthCtx")
/// Apple's constant with the raw value "nleg".
nonisolated(unsafe) public let kSecUseDataProtectionKeychain: CFString = SecConstant("nleg")
