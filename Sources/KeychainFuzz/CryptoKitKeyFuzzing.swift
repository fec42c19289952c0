import CryptoKit
import Foundation

/// The key-data target's CryptoKit readers: the NIST public and private key initializers of each curve (X9.63,
/// DER, PEM, raw, and for public keys compressed and compact), ECDSA signatures in DER and raw form, and
/// Curve25519 keys. Each accepted key must give back the form it was read from and read back from every other.
enum CryptoKitKeyFuzzing {
    /// The public and private forms each curve reads.
    enum Form: CaseIterable {
        case publicX963, publicDER, publicPEM, publicRaw, publicCompressed, publicCompact
        case privateX963, privateDER, privatePEM, privateRaw
        case signatureDER, signatureRaw
    }

    private static let curves = [NISTFaces.p256, .p384, .p521]
    /// The NIST readers, then Ed25519 and X25519 public keys.
    static let readerCount = curves.count * Form.allCases.count + 2

    /// The key-data reader byte of `form` on the curve at `curveIndex` (0 P-256, 1 P-384, 2 P-521).
    static func readerByte(curveIndex: Int, form: Form) -> UInt8 {
        UInt8(KeyFuzzing.readers.count + curveIndex * Form.allCases.count + Form.allCases.firstIndex(of: form)!)
    }

    static func run(reader: Int, key: [UInt8], operand: [UInt8]) {
        let nistReaders = curves.count * Form.allCases.count
        guard reader < nistReaders else {
            curve25519(reader - nistReaders, key: key, signature: operand)
            return
        }
        let faces = curves[reader / Form.allCases.count]
        let form = Form.allCases[reader % Form.allCases.count]
        let text = String(decoding: key, as: UTF8.self)
        do {
            switch form {
            case .publicX963:
                let forms = try faces.publicX963(key)
                fuzzCheck(forms.x963 == Data(key), "\(faces.name): x963 public key does not round-trip")
                check(forms, faces, signature: operand)
            case .publicDER: check(try faces.publicDER(key), faces, signature: operand)
            case .publicPEM: check(try faces.publicPEM(text), faces, signature: operand)
            case .publicRaw:
                let forms = try faces.publicRaw(key)
                fuzzCheck(forms.raw == Data(key), "\(faces.name): raw public key does not round-trip")
                check(forms, faces, signature: operand)
            case .publicCompressed:
                let forms = try faces.publicCompressed(key)
                fuzzCheck(forms.compressed == Data(key), "\(faces.name): compressed key does not round-trip")
                check(forms, faces, signature: operand)
            case .publicCompact:
                let forms = try faces.publicCompact(key)
                // The compact reader picks the point whose x alone names it, so it has a compact form: the input.
                fuzzCheck(forms.compact == Data(key), "\(faces.name): compact key does not round-trip")
                check(forms, faces, signature: operand)
            case .privateX963:
                let forms = try faces.privateX963(key)
                fuzzCheck(forms.x963 == Data(key), "\(faces.name): x963 private key does not round-trip")
                check(forms, faces)
            case .privateDER: check(try faces.privateDER(key), faces)
            case .privatePEM: check(try faces.privatePEM(text), faces)
            case .privateRaw:
                let forms = try faces.privateRaw(key)
                fuzzCheck(forms.raw == Data(key), "\(faces.name): raw private key does not round-trip")
                check(forms, faces)
            case .signatureDER:
                let raw = try faces.signatureFromDER(key)
                fuzzCheck(try faces.signatureFromDER(faces.derOfRawSignature(raw)) == raw, "signature round trip")
            case .signatureRaw:
                let der = try faces.derOfRawSignature(key)
                fuzzCheck(try faces.signatureFromDER(der) == key, "\(faces.name): raw signature does not round-trip")
            }
            fuzzNote("\(faces.name) \(form): accepted")
        } catch {
            fuzzNote("\(faces.name) \(form): \(error)")
        }
    }

    /// Every public form reads back as the same key, and a signature is checked without a trap.
    private static func check(_ forms: PublicForms, _ faces: NISTFaces, signature: [UInt8]) {
        let readers: [(String, () throws -> PublicForms)] = [
            ("x963", { try faces.publicX963(Array(forms.x963)) }), ("der", { try faces.publicDER(Array(forms.der)) }),
            ("pem", { try faces.publicPEM(forms.pem) }), ("raw", { try faces.publicRaw(Array(forms.raw)) }),
            ("compressed", { try faces.publicCompressed(Array(forms.compressed)) }),
        ]
        for (name, read) in readers {
            let again = try? read()
            fuzzCheck(again?.x963 == forms.x963, "\(faces.name): a public key's \(name) form does not read back")
        }
        if let compact = forms.compact {
            fuzzCheck(
                (try? faces.publicCompact(Array(compact)))?.x963 == forms.x963,
                "\(faces.name): a public key's compact form does not read back")
        }
        _ = forms.verify(signature, Data("a message".utf8))
    }

    /// Every private form reads back as the same key, and the key's signature verifies under its public key.
    private static func check(_ forms: PrivateForms, _ faces: NISTFaces) {
        let readers: [(String, () throws -> PrivateForms)] = [
            ("x963", { try faces.privateX963(Array(forms.x963)) }),
            ("der", { try faces.privateDER(Array(forms.der)) }), ("pem", { try faces.privatePEM(forms.pem) }),
            ("raw", { try faces.privateRaw(Array(forms.raw)) }),
        ]
        for (name, read) in readers {
            let again = try? read()
            fuzzCheck(again?.x963 == forms.x963, "\(faces.name): a private key's \(name) form does not read back")
        }
        check(forms.publicKey, faces, signature: [])
        let message = Data("a message".utf8)
        guard let signature = try? forms.sign(message) else {
            fuzzCheck(false, "\(faces.name): a private key does not sign")
            return
        }
        fuzzCheck(forms.publicKey.verify(Array(signature), message), "\(faces.name): a signature does not verify")
    }

    private static func curve25519(_ reader: Int, key: [UInt8], signature: [UInt8]) {
        if reader == 0 {
            guard let publicKey = try? Curve25519.Signing.PublicKey(rawRepresentation: key) else { return }
            fuzzCheck(publicKey.rawRepresentation == Data(key), "an Ed25519 key does not round-trip")
            _ = publicKey.isValidSignature(signature, for: Data("a message".utf8))
        } else {
            guard let publicKey = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: key) else { return }
            fuzzCheck(publicKey.rawRepresentation == Data(key), "an X25519 key does not round-trip")
            _ = try? Curve25519.KeyAgreement.PrivateKey().sharedSecretFromKeyAgreement(with: publicKey)
        }
    }
}
