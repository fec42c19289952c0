@_implementationOnly import COpenSSL

extension X509Certificate {
    /// SHA-1 of the public key's external representation: Apple's `pkhh` of a certificate item and `klbl` of the
    /// matching private key item, which is how an identity pairs them.
    package var publicKeyHash: [UInt8]? {
        guard let key = publicKeyExternalRepresentation else { return nil }
        var digest = [UInt8](repeating: 0, count: Int(SHA_DIGEST_LENGTH))
        var length: UInt32 = 0
        let done = digest.withUnsafeMutableBufferPointer { output in
            key.withUnsafeBytes { input in
                EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, EVP_sha1(), nil)
            }
        }
        guard done == 1, Int(length) == digest.count else {
            OpenSSLEncoding.clearErrors()
            return nil
        }
        return digest
    }
}
