import CryptoKitOpenSSL
import Foundation

/// What an algorithm string asks for, read from Apple's "algid:…" names.
enum KeyAlgorithmPlan {
    /// Whether a signature algorithm takes the message (hashed here) or a digest made by the caller.
    enum SignatureInput {
        case message(DigestAlgorithm)
        /// A digest of the named algorithm's length, or with nil any input as given.
        case digest(DigestAlgorithm?)
    }

    enum RSASignatureScheme {
        case raw
        case pkcs1v15
        case pss
    }

    /// ECDSA; `raw` signatures are `r ‖ s` (RFC 4754), the others DER (X9.62).
    case ecdsa(SignatureInput, raw: Bool)
    case rsaSignature(SignatureInput, RSASignatureScheme)
    case rsaEncryption(RSAEncryptionPadding)
    /// A random AES-GCM key wrapped with RSA OAEP, then the data under it.
    case rsaEncryptionAESGCM(DigestAlgorithm)
    case ecies(cofactor: Bool, variableIV: Bool, digest: DigestAlgorithm)
    case ecdh(cofactor: Bool, kdf: DigestAlgorithm?)

    /// The plan of `algorithm`, from a table of Apple's algorithms read once; nil for any other string, even one in
    /// the same grammar, since Apple implements only the algorithms it defines (Security's SecKeyAdaptors.m).
    init?(_ algorithm: SecKeyAlgorithm) {
        guard let known = Self.known[algorithm.rawValue as String] else { return nil }
        self = known
    }

    /// RSA PKCS #1 v1.5 over MD5: Apple defines these in SecKeyPriv.h only, and its keys run them.
    private static let privateNames = ["algid:sign:RSA:digest-PKCS1v15:MD5", "algid:sign:RSA:message-PKCS1v15:MD5"]

    private static let known: [String: KeyAlgorithmPlan] = {
        var table: [String: KeyAlgorithmPlan] = [:]
        for name in SecKeyAlgorithm.all.map({ $0.rawValue as String }) + privateNames {
            table[name] = KeyAlgorithmPlan(parsing: name)
        }
        return table
    }()

    private init?(parsing name: String) {
        let parts = name.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 3, parts[0] == "algid" else { return nil }
        let rest = Array(parts.dropFirst(2))
        switch parts[1] {
        case "sign": self.init(signature: rest)
        case "encrypt": self.init(encryption: rest)
        case "keyexchange": self.init(keyExchange: rest)
        default: return nil
        }
    }

    private init?(signature parts: [String]) {
        let digest = parts.count > 2 ? Self.digest(parts[2]) : nil
        if parts.count > 2 && digest == nil { return nil }
        switch (parts[0], parts.count > 1 ? parts[1] : "") {
        case ("ECDSA", "RFC4754") where parts.count == 2: self = .ecdsa(.digest(nil), raw: true)
        case ("ECDSA", "digest-X962"): self = .ecdsa(.digest(digest), raw: false)
        case ("ECDSA", "digest-RFC4754"): self = .ecdsa(.digest(digest), raw: true)
        case ("ECDSA", "message-X962"):
            guard let digest else { return nil }
            self = .ecdsa(.message(digest), raw: false)
        case ("ECDSA", "message-RFC4754"):
            guard let digest else { return nil }
            self = .ecdsa(.message(digest), raw: true)
        case ("RSA", "raw") where parts.count == 2: self = .rsaSignature(.digest(nil), .raw)
        case ("RSA", "digest-PKCS1v15"): self = .rsaSignature(.digest(digest), .pkcs1v15)
        case ("RSA", "message-PKCS1v15"):
            guard let digest else { return nil }
            self = .rsaSignature(.message(digest), .pkcs1v15)
        case ("RSA", "digest-PSS"), ("RSA", "message-PSS"):
            // "…-PSS:<digest>:<MGF1 digest>:<salt length>", the three agreeing; the salt is the digest's length.
            // Apple's SHA-224 names end in 24, not 28: they are taken as Apple spells them.
            let salt = digest?.outputByteCount == 28 ? "24" : digest.map { "\($0.outputByteCount)" }
            guard let digest, parts.count == 5, parts[3] == parts[2], parts[4] == salt else { return nil }
            self = .rsaSignature(parts[1] == "digest-PSS" ? .digest(digest) : .message(digest), .pss)
        default: return nil
        }
    }

    private init?(encryption parts: [String]) {
        switch parts.first {
        case "RSA":
            switch Array(parts.dropFirst()) {
            case ["raw"]: self = .rsaEncryption(.none)
            case ["PKCS1"]: self = .rsaEncryption(.pkcs1v15)
            case let oaep where oaep.count == 2 && oaep[0] == "OAEP":
                guard let digest = Self.digest(oaep[1]) else { return nil }
                self = .rsaEncryption(.oaep(digest))
            case let oaep where oaep.count == 3 && oaep[0] == "OAEP" && oaep[2] == "AESGCM":
                guard let digest = Self.digest(oaep[1]) else { return nil }
                self = .rsaEncryptionAESGCM(digest)
            default: return nil
            }
        case "ECIES":
            // "ECIES:<ECDH|ECDHC>:KDFX963:<digest>:<AESGCM|AESGCM-KDFIV>"
            guard parts.count == 5, parts[2] == "KDFX963", let digest = Self.digest(parts[3]),
                parts[1] == "ECDH" || parts[1] == "ECDHC", parts[4] == "AESGCM" || parts[4] == "AESGCM-KDFIV"
            else { return nil }
            self = .ecies(cofactor: parts[1] == "ECDHC", variableIV: parts[4] == "AESGCM-KDFIV", digest: digest)
        default: return nil
        }
    }

    private init?(keyExchange parts: [String]) {
        guard parts[0] == "ECDH" || parts[0] == "ECDHC" else { return nil }
        let cofactor = parts[0] == "ECDHC"
        switch parts.count {
        case 1: self = .ecdh(cofactor: cofactor, kdf: nil)
        case 3 where parts[1] == "KDFX963":
            guard let digest = Self.digest(parts[2]) else { return nil }
            self = .ecdh(cofactor: cofactor, kdf: digest)
        default: return nil
        }
    }

    private static func digest(_ name: String) -> DigestAlgorithm? {
        switch name {
        case "MD5": .md5
        case "SHA1": .sha1
        case "SHA224": .sha224
        case "SHA256": .sha256
        case "SHA384": .sha384
        case "SHA512": .sha512
        default: nil
        }
    }
}

extension KeyAlgorithmPlan {
    /// Whether `key` can run the plan as `operation`, by Apple's rules: private keys sign, decrypt and agree;
    /// public keys verify and encrypt, and an RSA public key also decrypts raw (the public operation, as Apple's
    /// SecRSAKey.c runs it for a decryption); paddings need room in the modulus.
    func isSupported(by key: SecKey, for operation: SecKeyOperationType) -> Bool {
        switch (self, key.material) {
        case (.ecdsa, .ec):
            return operation == (key.isPrivate ? .sign : .verify)
        case (.rsaSignature(let input, let scheme), .rsa(let rsa)):
            guard operation == (key.isPrivate ? .sign : .verify) else { return false }
            if scheme == .pss, case .message(let digest) = input {
                return rsa.modulusByteCount >= 2 * digest.outputByteCount + 2
            }
            if scheme == .pss, case .digest(let digest?) = input {
                return rsa.modulusByteCount >= 2 * digest.outputByteCount + 2
            }
            return true
        case (.rsaEncryption(.none), .rsa) where !key.isPrivate:
            // SecKeyAdaptors.m hands raw decryption to the key itself, and Apple's RSA public key computes it as
            // s^e mod n; the private key has no encryption (SecRSAKey.c).
            return operation == .encrypt || operation == .decrypt
        case (.rsaEncryption(let padding), .rsa(let rsa)):
            guard operation == (key.isPrivate ? .decrypt : .encrypt) else { return false }
            return padding.maximumPlaintextByteCount(modulusByteCount: rsa.modulusByteCount) >= 0
        case (.rsaEncryptionAESGCM(let digest), .rsa(let rsa)):
            guard operation == (key.isPrivate ? .decrypt : .encrypt) else { return false }
            let room = RSAEncryptionPadding.oaep(digest).maximumPlaintextByteCount(
                modulusByteCount: rsa.modulusByteCount)
            return room >= RSAWithAESGCM.sessionKeyByteCount(modulusBitCount: rsa.modulusBitCount)
        case (.ecies, .ec):
            return operation == (key.isPrivate ? .decrypt : .encrypt)
        case (.ecdh, .ec):
            return operation == .keyExchange && key.isPrivate
        default:
            return false
        }
    }
}
