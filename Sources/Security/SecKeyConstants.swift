import Foundation

// SecKey.h's constants with Apple's raw strings. In Swift, Apple's `SecKeyAlgorithm` and
// `SecKeyKeyExchangeParameter` are string-backed structs whose constants are static members
// (`SecKeyAlgorithm.ecdsaSignatureMessageX962SHA256`); the `kSecKeyAlgorithm…` C names are not visible there.

/// Apple's constant with the raw value "private": attributes of the private key `SecKeyCreateRandomKey` makes.
nonisolated(unsafe) public let kSecPrivateKeyAttrs: CFString = SecConstant("private")
/// Apple's constant with the raw value "public": attributes of the public key `SecKeyCreateRandomKey` makes.
nonisolated(unsafe) public let kSecPublicKeyAttrs: CFString = SecConstant("public")

/// What a key is asked to do, for `SecKeyIsAlgorithmSupported`.
public enum SecKeyOperationType: Int, Sendable {
    case sign = 0
    case verify = 1
    case encrypt = 2
    case decrypt = 3
    case keyExchange = 4
}

/// A parameter of `SecKeyCopyKeyExchangeResult`.
public struct SecKeyKeyExchangeParameter: Hashable, RawRepresentable, @unchecked Sendable {  // safe: immutable
    public let rawValue: CFString
    public init(rawValue: CFString) { self.rawValue = rawValue }
    public init(_ rawValue: CFString) { self.rawValue = rawValue }

    /// The number of bytes a KDF variant derives (a CFNumber); required by the X9.63 variants.
    public static let requestedSize = SecKeyKeyExchangeParameter(rawValue: SecConstant("requestedSize"))
    /// The shared info the X9.63 KDF mixes in (a CFData); optional.
    public static let sharedInfo = SecKeyKeyExchangeParameter(rawValue: SecConstant("sharedInfo"))
}

/// An algorithm for the SecKey operations, named by Apple's string.
public struct SecKeyAlgorithm: Hashable, RawRepresentable, @unchecked Sendable {  // safe: immutable
    public let rawValue: CFString
    public init(rawValue: CFString) { self.rawValue = rawValue }
    public init(_ rawValue: CFString) { self.rawValue = rawValue }

    public static func == (lhs: SecKeyAlgorithm, rhs: SecKeyAlgorithm) -> Bool {
        (lhs.rawValue as String) == (rhs.rawValue as String)
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue as String) }
    /// Apple's algorithm "algid:sign:RSA:raw".
    public static let rsaSignatureRaw = SecKeyAlgorithm(rawValue: SecConstant("algid:sign:RSA:raw"))
    /// Apple's algorithm "algid:sign:RSA:digest-PKCS1v15".
    public static let rsaSignatureDigestPKCS1v15Raw = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:RSA:digest-PKCS1v15"))
    /// Apple's algorithm "algid:sign:RSA:digest-PKCS1v15:SHA1".
    public static let rsaSignatureDigestPKCS1v15SHA1 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:RSA:digest-PKCS1v15:SHA1"))
    /// Apple's algorithm "algid:sign:RSA:digest-PKCS1v15:SHA224".
    public static let rsaSignatureDigestPKCS1v15SHA224 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:RSA:digest-PKCS1v15:SHA224"))
    /// Apple's algorithm "algid:sign:RSA:digest-PKCS1v15:SHA256".
    public static let rsaSignatureDigestPKCS1v15SHA256 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:RSA:digest-PKCS1v15:SHA256"))
    /// Apple's algorithm "algid:sign:RSA:digest-PKCS1v15:SHA384".
    public static let rsaSignatureDigestPKCS1v15SHA384 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:RSA:digest-PKCS1v15:SHA384"))
    /// Apple's algorithm "algid:sign:RSA:digest-PKCS1v15:SHA512".
    public static let rsaSignatureDigestPKCS1v15SHA512 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:RSA:digest-PKCS1v15:SHA512"))
    /// Apple's algorithm "algid:sign:RSA:message-PKCS1v15:SHA1".
    public static let rsaSignatureMessagePKCS1v15SHA1 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:RSA:message-PKCS1v15:SHA1"))
    /// Apple's algorithm "algid:sign:RSA:message-PKCS1v15:SHA224".
    public static let rsaSignatureMessagePKCS1v15SHA224 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:RSA:message-PKCS1v15:SHA224"))
    /// Apple's algorithm "algid:sign:RSA:message-PKCS1v15:SHA256".
    public static let rsaSignatureMessagePKCS1v15SHA256 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:RSA:message-PKCS1v15:SHA256"))
    /// Apple's algorithm "algid:sign:RSA:message-PKCS1v15:SHA384".
    public static let rsaSignatureMessagePKCS1v15SHA384 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:RSA:message-PKCS1v15:SHA384"))
    /// Apple's algorithm "algid:sign:RSA:message-PKCS1v15:SHA512".
    public static let rsaSignatureMessagePKCS1v15SHA512 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:RSA:message-PKCS1v15:SHA512"))
    /// Apple's algorithm "algid:sign:RSA:digest-PSS:SHA1:SHA1:20".
    public static let rsaSignatureDigestPSSSHA1 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:RSA:digest-PSS:SHA1:SHA1:20"))
    /// Apple's algorithm "algid:sign:RSA:digest-PSS:SHA224:SHA224:24" (Apple's name ends in 24; the salt is 28
    /// bytes, the digest's length, as for every PSS algorithm).
    public static let rsaSignatureDigestPSSSHA224 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:RSA:digest-PSS:SHA224:SHA224:24"))
    /// Apple's algorithm "algid:sign:RSA:digest-PSS:SHA256:SHA256:32".
    public static let rsaSignatureDigestPSSSHA256 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:RSA:digest-PSS:SHA256:SHA256:32"))
    /// Apple's algorithm "algid:sign:RSA:digest-PSS:SHA384:SHA384:48".
    public static let rsaSignatureDigestPSSSHA384 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:RSA:digest-PSS:SHA384:SHA384:48"))
    /// Apple's algorithm "algid:sign:RSA:digest-PSS:SHA512:SHA512:64".
    public static let rsaSignatureDigestPSSSHA512 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:RSA:digest-PSS:SHA512:SHA512:64"))
    /// Apple's algorithm "algid:sign:RSA:message-PSS:SHA1:SHA1:20".
    public static let rsaSignatureMessagePSSSHA1 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:RSA:message-PSS:SHA1:SHA1:20"))
    /// Apple's algorithm "algid:sign:RSA:message-PSS:SHA224:SHA224:24".
    public static let rsaSignatureMessagePSSSHA224 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:RSA:message-PSS:SHA224:SHA224:24"))
    /// Apple's algorithm "algid:sign:RSA:message-PSS:SHA256:SHA256:32".
    public static let rsaSignatureMessagePSSSHA256 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:RSA:message-PSS:SHA256:SHA256:32"))
    /// Apple's algorithm "algid:sign:RSA:message-PSS:SHA384:SHA384:48".
    public static let rsaSignatureMessagePSSSHA384 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:RSA:message-PSS:SHA384:SHA384:48"))
    /// Apple's algorithm "algid:sign:RSA:message-PSS:SHA512:SHA512:64".
    public static let rsaSignatureMessagePSSSHA512 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:RSA:message-PSS:SHA512:SHA512:64"))
    /// Apple's algorithm "algid:sign:ECDSA:RFC4754".
    public static let ecdsaSignatureRFC4754 = SecKeyAlgorithm(rawValue: SecConstant("algid:sign:ECDSA:RFC4754"))
    /// Apple's algorithm "algid:sign:ECDSA:digest-X962".
    public static let ecdsaSignatureDigestX962 = SecKeyAlgorithm(rawValue: SecConstant("algid:sign:ECDSA:digest-X962"))
    /// Apple's algorithm "algid:sign:ECDSA:digest-X962:SHA1".
    public static let ecdsaSignatureDigestX962SHA1 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:ECDSA:digest-X962:SHA1"))
    /// Apple's algorithm "algid:sign:ECDSA:digest-X962:SHA224".
    public static let ecdsaSignatureDigestX962SHA224 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:ECDSA:digest-X962:SHA224"))
    /// Apple's algorithm "algid:sign:ECDSA:digest-X962:SHA256".
    public static let ecdsaSignatureDigestX962SHA256 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:ECDSA:digest-X962:SHA256"))
    /// Apple's algorithm "algid:sign:ECDSA:digest-X962:SHA384".
    public static let ecdsaSignatureDigestX962SHA384 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:ECDSA:digest-X962:SHA384"))
    /// Apple's algorithm "algid:sign:ECDSA:digest-X962:SHA512".
    public static let ecdsaSignatureDigestX962SHA512 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:ECDSA:digest-X962:SHA512"))
    /// Apple's algorithm "algid:sign:ECDSA:message-X962:SHA1".
    public static let ecdsaSignatureMessageX962SHA1 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:ECDSA:message-X962:SHA1"))
    /// Apple's algorithm "algid:sign:ECDSA:message-X962:SHA224".
    public static let ecdsaSignatureMessageX962SHA224 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:ECDSA:message-X962:SHA224"))
    /// Apple's algorithm "algid:sign:ECDSA:message-X962:SHA256".
    public static let ecdsaSignatureMessageX962SHA256 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:ECDSA:message-X962:SHA256"))
    /// Apple's algorithm "algid:sign:ECDSA:message-X962:SHA384".
    public static let ecdsaSignatureMessageX962SHA384 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:ECDSA:message-X962:SHA384"))
    /// Apple's algorithm "algid:sign:ECDSA:message-X962:SHA512".
    public static let ecdsaSignatureMessageX962SHA512 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:ECDSA:message-X962:SHA512"))
    /// Apple's algorithm "algid:sign:ECDSA:digest-RFC4754": a digest of any length, signed as `r ‖ s`.
    public static let ecdsaSignatureDigestRFC4754 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:ECDSA:digest-RFC4754"))
    /// Apple's algorithm "algid:sign:ECDSA:digest-RFC4754:SHA1".
    public static let ecdsaSignatureDigestRFC4754SHA1 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:ECDSA:digest-RFC4754:SHA1"))
    /// Apple's algorithm "algid:sign:ECDSA:digest-RFC4754:SHA224".
    public static let ecdsaSignatureDigestRFC4754SHA224 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:ECDSA:digest-RFC4754:SHA224"))
    /// Apple's algorithm "algid:sign:ECDSA:digest-RFC4754:SHA256".
    public static let ecdsaSignatureDigestRFC4754SHA256 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:ECDSA:digest-RFC4754:SHA256"))
    /// Apple's algorithm "algid:sign:ECDSA:digest-RFC4754:SHA384".
    public static let ecdsaSignatureDigestRFC4754SHA384 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:ECDSA:digest-RFC4754:SHA384"))
    /// Apple's algorithm "algid:sign:ECDSA:digest-RFC4754:SHA512".
    public static let ecdsaSignatureDigestRFC4754SHA512 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:ECDSA:digest-RFC4754:SHA512"))
    /// Apple's algorithm "algid:sign:ECDSA:message-RFC4754:SHA1".
    public static let ecdsaSignatureMessageRFC4754SHA1 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:ECDSA:message-RFC4754:SHA1"))
    /// Apple's algorithm "algid:sign:ECDSA:message-RFC4754:SHA224".
    public static let ecdsaSignatureMessageRFC4754SHA224 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:ECDSA:message-RFC4754:SHA224"))
    /// Apple's algorithm "algid:sign:ECDSA:message-RFC4754:SHA256".
    public static let ecdsaSignatureMessageRFC4754SHA256 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:ECDSA:message-RFC4754:SHA256"))
    /// Apple's algorithm "algid:sign:ECDSA:message-RFC4754:SHA384".
    public static let ecdsaSignatureMessageRFC4754SHA384 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:ECDSA:message-RFC4754:SHA384"))
    /// Apple's algorithm "algid:sign:ECDSA:message-RFC4754:SHA512".
    public static let ecdsaSignatureMessageRFC4754SHA512 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:sign:ECDSA:message-RFC4754:SHA512"))
    /// Apple's algorithm "algid:encrypt:RSA:raw".
    public static let rsaEncryptionRaw = SecKeyAlgorithm(rawValue: SecConstant("algid:encrypt:RSA:raw"))
    /// Apple's algorithm "algid:encrypt:RSA:PKCS1".
    public static let rsaEncryptionPKCS1 = SecKeyAlgorithm(rawValue: SecConstant("algid:encrypt:RSA:PKCS1"))
    /// Apple's algorithm "algid:encrypt:RSA:OAEP:SHA1".
    public static let rsaEncryptionOAEPSHA1 = SecKeyAlgorithm(rawValue: SecConstant("algid:encrypt:RSA:OAEP:SHA1"))
    /// Apple's algorithm "algid:encrypt:RSA:OAEP:SHA224".
    public static let rsaEncryptionOAEPSHA224 = SecKeyAlgorithm(rawValue: SecConstant("algid:encrypt:RSA:OAEP:SHA224"))
    /// Apple's algorithm "algid:encrypt:RSA:OAEP:SHA256".
    public static let rsaEncryptionOAEPSHA256 = SecKeyAlgorithm(rawValue: SecConstant("algid:encrypt:RSA:OAEP:SHA256"))
    /// Apple's algorithm "algid:encrypt:RSA:OAEP:SHA384".
    public static let rsaEncryptionOAEPSHA384 = SecKeyAlgorithm(rawValue: SecConstant("algid:encrypt:RSA:OAEP:SHA384"))
    /// Apple's algorithm "algid:encrypt:RSA:OAEP:SHA512".
    public static let rsaEncryptionOAEPSHA512 = SecKeyAlgorithm(rawValue: SecConstant("algid:encrypt:RSA:OAEP:SHA512"))
    /// Apple's algorithm "algid:encrypt:RSA:OAEP:SHA1:AESGCM".
    public static let rsaEncryptionOAEPSHA1AESGCM = SecKeyAlgorithm(
        rawValue: SecConstant("algid:encrypt:RSA:OAEP:SHA1:AESGCM"))
    /// Apple's algorithm "algid:encrypt:RSA:OAEP:SHA224:AESGCM".
    public static let rsaEncryptionOAEPSHA224AESGCM = SecKeyAlgorithm(
        rawValue: SecConstant("algid:encrypt:RSA:OAEP:SHA224:AESGCM"))
    /// Apple's algorithm "algid:encrypt:RSA:OAEP:SHA256:AESGCM".
    public static let rsaEncryptionOAEPSHA256AESGCM = SecKeyAlgorithm(
        rawValue: SecConstant("algid:encrypt:RSA:OAEP:SHA256:AESGCM"))
    /// Apple's algorithm "algid:encrypt:RSA:OAEP:SHA384:AESGCM".
    public static let rsaEncryptionOAEPSHA384AESGCM = SecKeyAlgorithm(
        rawValue: SecConstant("algid:encrypt:RSA:OAEP:SHA384:AESGCM"))
    /// Apple's algorithm "algid:encrypt:RSA:OAEP:SHA512:AESGCM".
    public static let rsaEncryptionOAEPSHA512AESGCM = SecKeyAlgorithm(
        rawValue: SecConstant("algid:encrypt:RSA:OAEP:SHA512:AESGCM"))
    /// Apple's algorithm "algid:encrypt:ECIES:ECDH:KDFX963:SHA1:AESGCM".
    public static let eciesEncryptionStandardX963SHA1AESGCM = SecKeyAlgorithm(
        rawValue: SecConstant("algid:encrypt:ECIES:ECDH:KDFX963:SHA1:AESGCM"))
    /// Apple's algorithm "algid:encrypt:ECIES:ECDH:KDFX963:SHA224:AESGCM".
    public static let eciesEncryptionStandardX963SHA224AESGCM = SecKeyAlgorithm(
        rawValue: SecConstant("algid:encrypt:ECIES:ECDH:KDFX963:SHA224:AESGCM"))
    /// Apple's algorithm "algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM".
    public static let eciesEncryptionStandardX963SHA256AESGCM = SecKeyAlgorithm(
        rawValue: SecConstant("algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM"))
    /// Apple's algorithm "algid:encrypt:ECIES:ECDH:KDFX963:SHA384:AESGCM".
    public static let eciesEncryptionStandardX963SHA384AESGCM = SecKeyAlgorithm(
        rawValue: SecConstant("algid:encrypt:ECIES:ECDH:KDFX963:SHA384:AESGCM"))
    /// Apple's algorithm "algid:encrypt:ECIES:ECDH:KDFX963:SHA512:AESGCM".
    public static let eciesEncryptionStandardX963SHA512AESGCM = SecKeyAlgorithm(
        rawValue: SecConstant("algid:encrypt:ECIES:ECDH:KDFX963:SHA512:AESGCM"))
    /// Apple's algorithm "algid:encrypt:ECIES:ECDHC:KDFX963:SHA1:AESGCM".
    public static let eciesEncryptionCofactorX963SHA1AESGCM = SecKeyAlgorithm(
        rawValue: SecConstant("algid:encrypt:ECIES:ECDHC:KDFX963:SHA1:AESGCM"))
    /// Apple's algorithm "algid:encrypt:ECIES:ECDHC:KDFX963:SHA224:AESGCM".
    public static let eciesEncryptionCofactorX963SHA224AESGCM = SecKeyAlgorithm(
        rawValue: SecConstant("algid:encrypt:ECIES:ECDHC:KDFX963:SHA224:AESGCM"))
    /// Apple's algorithm "algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM".
    public static let eciesEncryptionCofactorX963SHA256AESGCM = SecKeyAlgorithm(
        rawValue: SecConstant("algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM"))
    /// Apple's algorithm "algid:encrypt:ECIES:ECDHC:KDFX963:SHA384:AESGCM".
    public static let eciesEncryptionCofactorX963SHA384AESGCM = SecKeyAlgorithm(
        rawValue: SecConstant("algid:encrypt:ECIES:ECDHC:KDFX963:SHA384:AESGCM"))
    /// Apple's algorithm "algid:encrypt:ECIES:ECDHC:KDFX963:SHA512:AESGCM".
    public static let eciesEncryptionCofactorX963SHA512AESGCM = SecKeyAlgorithm(
        rawValue: SecConstant("algid:encrypt:ECIES:ECDHC:KDFX963:SHA512:AESGCM"))
    /// Apple's algorithm "algid:encrypt:ECIES:ECDH:KDFX963:SHA224:AESGCM-KDFIV".
    public static let eciesEncryptionStandardVariableIVX963SHA224AESGCM = SecKeyAlgorithm(
        rawValue: SecConstant("algid:encrypt:ECIES:ECDH:KDFX963:SHA224:AESGCM-KDFIV"))
    /// Apple's algorithm "algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM-KDFIV".
    public static let eciesEncryptionStandardVariableIVX963SHA256AESGCM = SecKeyAlgorithm(
        rawValue: SecConstant("algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM-KDFIV"))
    /// Apple's algorithm "algid:encrypt:ECIES:ECDH:KDFX963:SHA384:AESGCM-KDFIV".
    public static let eciesEncryptionStandardVariableIVX963SHA384AESGCM = SecKeyAlgorithm(
        rawValue: SecConstant("algid:encrypt:ECIES:ECDH:KDFX963:SHA384:AESGCM-KDFIV"))
    /// Apple's algorithm "algid:encrypt:ECIES:ECDH:KDFX963:SHA512:AESGCM-KDFIV".
    public static let eciesEncryptionStandardVariableIVX963SHA512AESGCM = SecKeyAlgorithm(
        rawValue: SecConstant("algid:encrypt:ECIES:ECDH:KDFX963:SHA512:AESGCM-KDFIV"))
    /// Apple's algorithm "algid:encrypt:ECIES:ECDHC:KDFX963:SHA224:AESGCM-KDFIV".
    public static let eciesEncryptionCofactorVariableIVX963SHA224AESGCM = SecKeyAlgorithm(
        rawValue: SecConstant("algid:encrypt:ECIES:ECDHC:KDFX963:SHA224:AESGCM-KDFIV"))
    /// Apple's algorithm "algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM-KDFIV".
    public static let eciesEncryptionCofactorVariableIVX963SHA256AESGCM = SecKeyAlgorithm(
        rawValue: SecConstant("algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM-KDFIV"))
    /// Apple's algorithm "algid:encrypt:ECIES:ECDHC:KDFX963:SHA384:AESGCM-KDFIV".
    public static let eciesEncryptionCofactorVariableIVX963SHA384AESGCM = SecKeyAlgorithm(
        rawValue: SecConstant("algid:encrypt:ECIES:ECDHC:KDFX963:SHA384:AESGCM-KDFIV"))
    /// Apple's algorithm "algid:encrypt:ECIES:ECDHC:KDFX963:SHA512:AESGCM-KDFIV".
    public static let eciesEncryptionCofactorVariableIVX963SHA512AESGCM = SecKeyAlgorithm(
        rawValue: SecConstant("algid:encrypt:ECIES:ECDHC:KDFX963:SHA512:AESGCM-KDFIV"))
    /// Apple's algorithm "algid:keyexchange:ECDH".
    public static let ecdhKeyExchangeStandard = SecKeyAlgorithm(rawValue: SecConstant("algid:keyexchange:ECDH"))
    /// Apple's algorithm "algid:keyexchange:ECDH:KDFX963:SHA1".
    public static let ecdhKeyExchangeStandardX963SHA1 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:keyexchange:ECDH:KDFX963:SHA1"))
    /// Apple's algorithm "algid:keyexchange:ECDH:KDFX963:SHA224".
    public static let ecdhKeyExchangeStandardX963SHA224 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:keyexchange:ECDH:KDFX963:SHA224"))
    /// Apple's algorithm "algid:keyexchange:ECDH:KDFX963:SHA256".
    public static let ecdhKeyExchangeStandardX963SHA256 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:keyexchange:ECDH:KDFX963:SHA256"))
    /// Apple's algorithm "algid:keyexchange:ECDH:KDFX963:SHA384".
    public static let ecdhKeyExchangeStandardX963SHA384 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:keyexchange:ECDH:KDFX963:SHA384"))
    /// Apple's algorithm "algid:keyexchange:ECDH:KDFX963:SHA512".
    public static let ecdhKeyExchangeStandardX963SHA512 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:keyexchange:ECDH:KDFX963:SHA512"))
    /// Apple's algorithm "algid:keyexchange:ECDHC".
    public static let ecdhKeyExchangeCofactor = SecKeyAlgorithm(rawValue: SecConstant("algid:keyexchange:ECDHC"))
    /// Apple's algorithm "algid:keyexchange:ECDHC:KDFX963:SHA1".
    public static let ecdhKeyExchangeCofactorX963SHA1 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:keyexchange:ECDHC:KDFX963:SHA1"))
    /// Apple's algorithm "algid:keyexchange:ECDHC:KDFX963:SHA224".
    public static let ecdhKeyExchangeCofactorX963SHA224 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:keyexchange:ECDHC:KDFX963:SHA224"))
    /// Apple's algorithm "algid:keyexchange:ECDHC:KDFX963:SHA256".
    public static let ecdhKeyExchangeCofactorX963SHA256 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:keyexchange:ECDHC:KDFX963:SHA256"))
    /// Apple's algorithm "algid:keyexchange:ECDHC:KDFX963:SHA384".
    public static let ecdhKeyExchangeCofactorX963SHA384 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:keyexchange:ECDHC:KDFX963:SHA384"))
    /// Apple's algorithm "algid:keyexchange:ECDHC:KDFX963:SHA512".
    public static let ecdhKeyExchangeCofactorX963SHA512 = SecKeyAlgorithm(
        rawValue: SecConstant("algid:keyexchange:ECDHC:KDFX963:SHA512"))

    /// Every algorithm named above, for the tables of tests and documentation.
    package static let all: [SecKeyAlgorithm] = [
        .rsaSignatureRaw,
        .rsaSignatureDigestPKCS1v15Raw,
        .rsaSignatureDigestPKCS1v15SHA1,
        .rsaSignatureDigestPKCS1v15SHA224,
        .rsaSignatureDigestPKCS1v15SHA256,
        .rsaSignatureDigestPKCS1v15SHA384,
        .rsaSignatureDigestPKCS1v15SHA512,
        .rsaSignatureMessagePKCS1v15SHA1,
        .rsaSignatureMessagePKCS1v15SHA224,
        .rsaSignatureMessagePKCS1v15SHA256,
        .rsaSignatureMessagePKCS1v15SHA384,
        .rsaSignatureMessagePKCS1v15SHA512,
        .rsaSignatureDigestPSSSHA1,
        .rsaSignatureDigestPSSSHA224,
        .rsaSignatureDigestPSSSHA256,
        .rsaSignatureDigestPSSSHA384,
        .rsaSignatureDigestPSSSHA512,
        .rsaSignatureMessagePSSSHA1,
        .rsaSignatureMessagePSSSHA224,
        .rsaSignatureMessagePSSSHA256,
        .rsaSignatureMessagePSSSHA384,
        .rsaSignatureMessagePSSSHA512,
        .ecdsaSignatureRFC4754,
        .ecdsaSignatureDigestX962,
        .ecdsaSignatureDigestX962SHA1,
        .ecdsaSignatureDigestX962SHA224,
        .ecdsaSignatureDigestX962SHA256,
        .ecdsaSignatureDigestX962SHA384,
        .ecdsaSignatureDigestX962SHA512,
        .ecdsaSignatureMessageX962SHA1,
        .ecdsaSignatureMessageX962SHA224,
        .ecdsaSignatureMessageX962SHA256,
        .ecdsaSignatureMessageX962SHA384,
        .ecdsaSignatureMessageX962SHA512,
        .ecdsaSignatureDigestRFC4754,
        .ecdsaSignatureDigestRFC4754SHA1,
        .ecdsaSignatureDigestRFC4754SHA224,
        .ecdsaSignatureDigestRFC4754SHA256,
        .ecdsaSignatureDigestRFC4754SHA384,
        .ecdsaSignatureDigestRFC4754SHA512,
        .ecdsaSignatureMessageRFC4754SHA1,
        .ecdsaSignatureMessageRFC4754SHA224,
        .ecdsaSignatureMessageRFC4754SHA256,
        .ecdsaSignatureMessageRFC4754SHA384,
        .ecdsaSignatureMessageRFC4754SHA512,
        .rsaEncryptionRaw,
        .rsaEncryptionPKCS1,
        .rsaEncryptionOAEPSHA1,
        .rsaEncryptionOAEPSHA224,
        .rsaEncryptionOAEPSHA256,
        .rsaEncryptionOAEPSHA384,
        .rsaEncryptionOAEPSHA512,
        .rsaEncryptionOAEPSHA1AESGCM,
        .rsaEncryptionOAEPSHA224AESGCM,
        .rsaEncryptionOAEPSHA256AESGCM,
        .rsaEncryptionOAEPSHA384AESGCM,
        .rsaEncryptionOAEPSHA512AESGCM,
        .eciesEncryptionStandardX963SHA1AESGCM,
        .eciesEncryptionStandardX963SHA224AESGCM,
        .eciesEncryptionStandardX963SHA256AESGCM,
        .eciesEncryptionStandardX963SHA384AESGCM,
        .eciesEncryptionStandardX963SHA512AESGCM,
        .eciesEncryptionCofactorX963SHA1AESGCM,
        .eciesEncryptionCofactorX963SHA224AESGCM,
        .eciesEncryptionCofactorX963SHA256AESGCM,
        .eciesEncryptionCofactorX963SHA384AESGCM,
        .eciesEncryptionCofactorX963SHA512AESGCM,
        .eciesEncryptionStandardVariableIVX963SHA224AESGCM,
        .eciesEncryptionStandardVariableIVX963SHA256AESGCM,
        .eciesEncryptionStandardVariableIVX963SHA384AESGCM,
        .eciesEncryptionStandardVariableIVX963SHA512AESGCM,
        .eciesEncryptionCofactorVariableIVX963SHA224AESGCM,
        .eciesEncryptionCofactorVariableIVX963SHA256AESGCM,
        .eciesEncryptionCofactorVariableIVX963SHA384AESGCM,
        .eciesEncryptionCofactorVariableIVX963SHA512AESGCM,
        .ecdhKeyExchangeStandard,
        .ecdhKeyExchangeStandardX963SHA1,
        .ecdhKeyExchangeStandardX963SHA224,
        .ecdhKeyExchangeStandardX963SHA256,
        .ecdhKeyExchangeStandardX963SHA384,
        .ecdhKeyExchangeStandardX963SHA512,
        .ecdhKeyExchangeCofactor,
        .ecdhKeyExchangeCofactorX963SHA1,
        .ecdhKeyExchangeCofactorX963SHA224,
        .ecdhKeyExchangeCofactorX963SHA256,
        .ecdhKeyExchangeCofactorX963SHA384,
        .ecdhKeyExchangeCofactorX963SHA512,
    ]
}
