import Foundation

/// How the SecKey functions of iOS 2 pad: each value names one algorithm of the functions that replaced them.
public struct SecPadding: OptionSet, Sendable {
    public let rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// PKCS #1 v1.5: encryption, or a signature over data given as it is.
    public static let PKCS1 = SecPadding(rawValue: 1)
    /// OAEP with SHA-1 (encryption only).
    public static let OAEP = SecPadding(rawValue: 2)
    /// An ECDSA signature as `r ‖ s` (RFC 4754) instead of DER.
    public static let sigRaw = SecPadding(rawValue: 0x4000)
    /// MD2 and MD5 DigestInfo: Apple maps them to no algorithm (`SecKey.m`), so an RSA key answers errSecParam;
    /// an EC key reads them, as every padding but `.sigRaw`, as X9.62.
    public static let PKCS1MD2 = SecPadding(rawValue: 0x8000)
    public static let PKCS1MD5 = SecPadding(rawValue: 0x8001)
    /// PKCS #1 v1.5 over a SHA-1 digest given by the caller, with the digest's DER prefix.
    public static let PKCS1SHA1 = SecPadding(rawValue: 0x8002)
    public static let PKCS1SHA224 = SecPadding(rawValue: 0x8003)
    public static let PKCS1SHA256 = SecPadding(rawValue: 0x8004)
    public static let PKCS1SHA384 = SecPadding(rawValue: 0x8005)
    public static let PKCS1SHA512 = SecPadding(rawValue: 0x8006)
}

/// Signs `dataToSign` (a digest, or for `kSecPaddingNone` and `.PKCS1` the bytes as they are) into `sig`, whose
/// room `sigLen` gives and which it sets to the signature's length. errSecParam for a padding that names no
/// algorithm for the key, or a signature larger than the room (`sig` and `sigLen` are then untouched).
@available(*, deprecated, message: "Use SecKeyCreateSignature")
public func SecKeyRawSign(
    _ key: SecKey, _ padding: SecPadding, _ dataToSign: UnsafePointer<UInt8>, _ dataToSignLen: Int,
    _ sig: UnsafeMutablePointer<UInt8>, _ sigLen: UnsafeMutablePointer<Int>
) -> OSStatus {
    guard let algorithm = LegacyPadding.signatureAlgorithm(key, padding, digestSize: dataToSignLen) else {
        return errSecParam
    }
    return LegacyPadding.run(output: sig, room: sigLen) { error in
        SecKeyCreateSignature(key, algorithm, LegacyPadding.data(dataToSign, dataToSignLen), error) as Data?
    }
}

/// Verifies `sig` over `signedData` (as `SecKeyRawSign` reads its padding). A signature that does not verify is
/// errSSLCrypto, the answer of these functions before the algorithm functions existed.
@available(*, deprecated, message: "Use SecKeyVerifySignature")
public func SecKeyRawVerify(
    _ key: SecKey, _ padding: SecPadding, _ signedData: UnsafePointer<UInt8>, _ signedDataLen: Int,
    _ sig: UnsafePointer<UInt8>, _ sigLen: Int
) -> OSStatus {
    guard let algorithm = LegacyPadding.signatureAlgorithm(key, padding, digestSize: signedDataLen) else {
        return errSecParam
    }
    var error: Unmanaged<CFError>?
    let signed = LegacyPadding.data(signedData, signedDataLen)
    if SecKeyVerifySignature(key, algorithm, signed, LegacyPadding.data(sig, sigLen), &error) { return errSecSuccess }
    let status = LegacyPadding.status(error)
    return status == errSecVerifyFailed ? errSSLCrypto : status
}

/// Encrypts `plainText` with an RSA public key: `kSecPaddingNone` (raw), `.PKCS1` or `.OAEP` (SHA-1).
@available(*, deprecated, message: "Use SecKeyCreateEncryptedData")
public func SecKeyEncrypt(
    _ key: SecKey, _ padding: SecPadding, _ plainText: UnsafePointer<UInt8>, _ plainTextLen: Int,
    _ cipherText: UnsafeMutablePointer<UInt8>, _ cipherTextLen: UnsafeMutablePointer<Int>
) -> OSStatus {
    guard let algorithm = LegacyPadding.encryptionAlgorithm(key, padding) else { return errSecParam }
    return LegacyPadding.run(output: cipherText, room: cipherTextLen) { error in
        SecKeyCreateEncryptedData(key, algorithm, LegacyPadding.data(plainText, plainTextLen), error) as Data?
    }
}

/// Decrypts `cipherText` with an RSA private key, padding read as `SecKeyEncrypt` reads it; without padding an RSA
/// public key decrypts too (the raw public operation). Without padding the block's leading zero bytes are dropped,
/// as these functions always did.
@available(*, deprecated, message: "Use SecKeyCreateDecryptedData")
public func SecKeyDecrypt(
    _ key: SecKey, _ padding: SecPadding, _ cipherText: UnsafePointer<UInt8>, _ cipherTextLen: Int,
    _ plainText: UnsafeMutablePointer<UInt8>, _ plainTextLen: UnsafeMutablePointer<Int>
) -> OSStatus {
    guard let algorithm = LegacyPadding.encryptionAlgorithm(key, padding) else { return errSecParam }
    return LegacyPadding.run(output: plainText, room: plainTextLen) { error in
        let opened = SecKeyCreateDecryptedData(key, algorithm, LegacyPadding.data(cipherText, cipherTextLen), error)
        guard let opened = opened as Data? else { return nil }
        return algorithm == .rsaEncryptionRaw ? opened.drop(while: { $0 == 0 }) : opened
    }
}

/// Makes a key pair as `SecKeyCreateRandomKey` does with `parameters` (stored when they ask for it), and gives
/// either half asked for. A failure is the code of `SecKeyCreateRandomKey`'s error.
@available(*, deprecated, message: "Use SecKeyCreateRandomKey")
public func SecKeyGeneratePair(
    _ parameters: CFDictionary, _ publicKey: UnsafeMutablePointer<SecKey?>?,
    _ privateKey: UnsafeMutablePointer<SecKey?>?
) -> OSStatus {
    var error: Unmanaged<CFError>?
    guard let made = SecKeyCreateRandomKey(parameters, &error) else { return LegacyPadding.status(error) }
    privateKey?.pointee = made
    publicKey?.pointee = SecKeyCopyPublicKey(made)
    return errSecSuccess
}

/// Which algorithm each legacy padding means for a key, and the calling conventions of the legacy functions.
enum LegacyPadding {
    static func signatureAlgorithm(_ key: SecKey, _ padding: SecPadding, digestSize: Int) -> SecKeyAlgorithm? {
        switch key.material {
        case .rsa:
            switch padding {
            case []: return .rsaSignatureRaw
            case .PKCS1: return .rsaSignatureDigestPKCS1v15Raw
            case .PKCS1SHA1: return .rsaSignatureDigestPKCS1v15SHA1
            case .PKCS1SHA224: return .rsaSignatureDigestPKCS1v15SHA224
            case .PKCS1SHA256: return .rsaSignatureDigestPKCS1v15SHA256
            case .PKCS1SHA384: return .rsaSignatureDigestPKCS1v15SHA384
            case .PKCS1SHA512: return .rsaSignatureDigestPKCS1v15SHA512
            default: return nil
            }
        case .ec:
            if padding == .sigRaw { return .ecdsaSignatureDigestRFC4754 }
            // Every other padding, none included, has always meant X9.62 DER for an EC key; a digest of a known
            // length names its hash.
            guard padding == .PKCS1 else { return .ecdsaSignatureDigestX962 }
            switch digestSize {
            case 20: return .ecdsaSignatureDigestX962SHA1
            case 28: return .ecdsaSignatureDigestX962SHA224
            case 32: return .ecdsaSignatureDigestX962SHA256
            case 48: return .ecdsaSignatureDigestX962SHA384
            case 64: return .ecdsaSignatureDigestX962SHA512
            default: return .ecdsaSignatureDigestX962
            }
        }
    }

    static func encryptionAlgorithm(_ key: SecKey, _ padding: SecPadding) -> SecKeyAlgorithm? {
        guard case .rsa = key.material else { return nil }
        switch padding {
        case []: return .rsaEncryptionRaw
        case .PKCS1: return .rsaEncryptionPKCS1
        case .OAEP: return .rsaEncryptionOAEPSHA1
        default: return nil
        }
    }

    /// The caller's bytes as a `CFData`, without a copy (the call does not keep it).
    static func data(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CFData {
        NSData(bytesNoCopy: UnsafeMutableRawPointer(mutating: bytes), length: max(count, 0), freeWhenDone: false)
    }

    /// The status of a failed call's error, consuming it.
    static func status(_ error: Unmanaged<CFError>?) -> OSStatus {
        guard let error = error?.takeRetainedValue() else { return errSecInternalComponent }
        return OSStatus(truncatingIfNeeded: CFErrorGetCode(error))
    }

    /// Runs `operation` and copies its result into `output`, whose room `room` gives and which it sets to the
    /// result's length; a result larger than the room is errSecParam and writes nothing.
    static func run(
        output: UnsafeMutablePointer<UInt8>, room: UnsafeMutablePointer<Int>,
        _ operation: (UnsafeMutablePointer<Unmanaged<CFError>?>) -> Data?
    ) -> OSStatus {
        var error: Unmanaged<CFError>?
        guard var result = operation(&error) else { return status(error) }
        defer { result.resetBytes(in: result.startIndex..<result.endIndex) }
        guard result.count <= room.pointee else { return errSecParam }
        result.copyBytes(to: output, count: result.count)
        room.pointee = result.count
        return errSecSuccess
    }
}
