// Application code written the way Apple's CryptoKit documentation and iOS security guides show it, with nothing
// but `import CryptoKit`: it must compile unchanged against this module. CryptoKitSourceCompatibilityTests runs it.
import CryptoKit

// MARK: - Symmetric encryption (AES-GCM), as an iOS security guide writes it

let appEncryptionKey = SymmetricKey(size: .bits256)

enum CryptoError: Error {
    case sealFailed
}

func encrypt(_ data: Data, using key: SymmetricKey) throws -> Data {
    let sealed = try AES.GCM.seal(data, using: key)
    guard let combined = sealed.combined else {
        throw CryptoError.sealFailed
    }
    return combined
}

func decrypt(_ data: Data, using key: SymmetricKey) throws -> Data {
    let box = try AES.GCM.SealedBox(combined: data)
    return try AES.GCM.open(box, using: key)
}

// MARK: - Hashing

func hexDigest(of data: Data) -> String {
    let hash = SHA256.hash(data: data)
    let hashString = hash.compactMap { String(format: "%02x", $0) }.joined()
    return hashString
}

func otherDigests(of data: Data) -> (sha384: String, sha512: String) {
    (SHA384.hash(data: data).description, SHA512.hash(data: data).description)
}

/// A certificate pin: the base64 SHA-256 of a public key's bytes.
func pin(ofPublicKey publicKeyData: Data) -> String {
    let hash = SHA256.hash(data: publicKeyData)
    let hashString = Data(hash).base64EncodedString()
    return hashString
}

// MARK: - HMAC

func signAndVerify(_ data: Data) -> (code: Data, isValid: Bool) {
    let key = SymmetricKey(size: .bits256)
    // Sign
    let signature = HMAC<SHA256>.authenticationCode(for: data, using: key)
    // Verify
    let isValid = HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: data, using: key)
    return (Data(signature), isValid)
}

func hmacHex(_ message: String, key: String) -> String {
    let key = SymmetricKey(data: Data(key.utf8))
    let code = HMAC<SHA256>.authenticationCode(for: Data(message.utf8), using: key)
    return code.map { String(format: "%02x", $0) }.joined()
}

func incrementalHMAC(_ chunks: [Data], key: SymmetricKey) -> HashedAuthenticationCode<SHA512> {
    var hmac = HMAC<SHA512>(key: key)
    for chunk in chunks { hmac.update(data: chunk) }
    return hmac.finalize()
}

// MARK: - Incremental hashing of a stream, as Apple's "Performing Common Cryptographic Operations" shows

func streamDigest(_ chunks: [Data]) -> SHA256.Digest {
    var hasher = SHA256()
    for chunk in chunks { hasher.update(data: chunk) }
    return hasher.finalize()
}

func legacyChecksums(_ data: Data) -> (md5: String, sha1: String) {
    let md5 = Insecure.MD5.hash(data: data)
    let sha1 = Insecure.SHA1.hash(data: data)
    return (md5.map { String(format: "%02hhx", $0) }.joined(), sha1.map { String(format: "%02hhx", $0) }.joined())
}

// MARK: - Signing (P256 and Curve25519)

func signWithP256(_ data: Data) throws -> Bool {
    let signingKey = P256.Signing.PrivateKey()
    let signingPublicKey = signingKey.publicKey
    let signature = try signingKey.signature(for: data)
    let derSignature = signature.derRepresentation
    let restored = try P256.Signing.ECDSASignature(derRepresentation: derSignature)
    let publicKeyPEM = signingPublicKey.pemRepresentation
    let importedKey = try P256.Signing.PublicKey(pemRepresentation: publicKeyPEM)
    return importedKey.isValidSignature(restored, for: data)
}

func signWithCurve25519(_ data: Data) throws -> Bool {
    let signingKey = Curve25519.Signing.PrivateKey()
    let signingPublicKeyData = signingKey.publicKey.rawRepresentation
    let signature = try signingKey.signature(for: data)
    let initializedSigningPublicKey = try Curve25519.Signing.PublicKey(rawRepresentation: signingPublicKeyData)
    return initializedSigningPublicKey.isValidSignature(signature, for: data)
}

func signWithP384AndP521(_ data: Data) throws -> Bool {
    let p384 = P384.Signing.PrivateKey()
    let p521 = P521.Signing.PrivateKey(compactRepresentable: false)
    let digest = SHA512.hash(data: data)
    let p384Signature = try p384.signature(for: data)
    let p521Signature = try p521.signature(for: digest)
    return p384.publicKey.isValidSignature(p384Signature, for: data)
        && p521.publicKey.isValidSignature(p521Signature, for: digest)
}

// MARK: - Key agreement, then a symmetric key

let protocolSalt = "My Key Agreement Salt".data(using: .utf8)!

func agreeOnKeyWithCurve25519() throws -> Bool {
    let privateKey = Curve25519.KeyAgreement.PrivateKey()
    let publicKey = privateKey.publicKey
    let sharedPublicKeyData = publicKey.rawRepresentation

    let otherPrivateKey = Curve25519.KeyAgreement.PrivateKey()
    let otherPublicKey = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: sharedPublicKeyData)

    let sharedSecret = try otherPrivateKey.sharedSecretFromKeyAgreement(with: otherPublicKey)
    let symmetricKey = sharedSecret.hkdfDerivedSymmetricKey(
        using: SHA256.self, salt: protocolSalt, sharedInfo: Data(), outputByteCount: 32)

    let mySecret = try privateKey.sharedSecretFromKeyAgreement(with: otherPrivateKey.publicKey)
    let myKey = mySecret.hkdfDerivedSymmetricKey(
        using: SHA256.self, salt: protocolSalt, sharedInfo: Data(), outputByteCount: 32)
    return symmetricKey == myKey
}

func agreeOnKeyWithP256() throws -> Bool {
    let alice = P256.KeyAgreement.PrivateKey()
    let bob = P256.KeyAgreement.PrivateKey()
    let bobPublic = try P256.KeyAgreement.PublicKey(x963Representation: bob.publicKey.x963Representation)
    let aliceShared = try alice.sharedSecretFromKeyAgreement(with: bobPublic)
    let bobShared = try bob.sharedSecretFromKeyAgreement(with: alice.publicKey)
    let aliceKey = aliceShared.x963DerivedSymmetricKey(using: SHA256.self, sharedInfo: Data(), outputByteCount: 32)
    let bobKey = bobShared.x963DerivedSymmetricKey(using: SHA256.self, sharedInfo: Data(), outputByteCount: 32)
    return aliceKey == bobKey
}

// MARK: - ChaChaPoly, HKDF, key wrap

func sealWithChaChaPoly(_ message: Data, key: SymmetricKey) throws -> Data {
    let sealedBox = try ChaChaPoly.seal(message, using: key, authenticating: Data("header".utf8))
    let combined = sealedBox.combined
    let reopened = try ChaChaPoly.SealedBox(combined: combined)
    return try ChaChaPoly.open(reopened, using: key, authenticating: Data("header".utf8))
}

func deriveSessionKey(from master: SymmetricKey, context: String) -> SymmetricKey {
    HKDF<SHA256>.deriveKey(
        inputKeyMaterial: master, salt: Data("salt".utf8), info: Data(context.utf8), outputByteCount: 32)
}

func wrapAndUnwrap(_ key: SymmetricKey, with kek: SymmetricKey) throws -> SymmetricKey {
    let wrapped = try AES.KeyWrap.wrap(key, using: kek)
    return try AES.KeyWrap.unwrap(wrapped, using: kek)
}

func storeKeyBytes(_ key: SymmetricKey) -> Data {
    key.withUnsafeBytes { Data(Array($0)) }
}

func describeFailure(_ error: Error) -> String {
    switch error {
    case CryptoKitError.authenticationFailure: "tampered"
    case CryptoKitError.incorrectKeySize: "bad key"
    case CryptoKitError.underlyingCoreCryptoError(error: let code): "library \(code)"
    default: "other"
    }
}

// MARK: - Keys stored as generic passwords, through a protocol of the app's own

/// A key type the app can store as a generic password: its raw bytes out and back, and a description that the
/// protocol gives every conforming key (so `SymmetricKey` must not bring one of its own).
protocol StorableAsPassword: CustomStringConvertible {
    init<Bytes: ContiguousBytes>(passwordBytes: Bytes) throws
    var passwordBytes: Data { get }
}

extension StorableAsPassword {
    public var description: String { "a stored key of \(passwordBytes.count) bytes" }
}

extension SymmetricKey: StorableAsPassword {
    init<Bytes: ContiguousBytes>(passwordBytes: Bytes) throws { self.init(data: passwordBytes) }
    var passwordBytes: Data { withUnsafeBytes { Data($0) } }
}

// MARK: - A nonce's bytes, through the iterator type CryptoKit declares

func firstByte(of nonce: AES.GCM.Nonce) -> UInt8? {
    var bytes: Array<UInt8>.Iterator = nonce.makeIterator()
    return bytes.next()
}

func lastByte(of nonce: ChaChaPoly.Nonce) -> UInt8? {
    var bytes: Array<UInt8>.Iterator = nonce.makeIterator()
    var last: UInt8?
    while let byte = bytes.next() { last = byte }
    return last
}
