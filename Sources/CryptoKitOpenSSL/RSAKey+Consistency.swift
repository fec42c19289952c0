@_implementationOnly import COpenSSL

extension RSAKey {
    /// Whether a private key's parts agree: n = p·q, the CRT exponents are d mod (p − 1) and d mod (q − 1), the
    /// coefficient is q⁻¹ mod p, and the raw private operation undoes the public one. OpenSSL's private check looks
    /// at d alone, so a damaged or hostile key file (a factor that is not one) would otherwise give a key that
    /// cannot sign, or signs only through OpenSSL's slow fallback. The primes are not tested (that costs seconds
    /// for large keys); the round trip fails for composite factors all but always.
    func partsAgree() -> Bool {
        guard hasPrivateKey, let context = BN_CTX_new() else { return false }
        defer { BN_CTX_free(context) }
        let names = ["n", "d", "rsa-factor1", "rsa-factor2", "rsa-exponent1", "rsa-exponent2", "rsa-coefficient1"]
        var parts: [OpaquePointer] = []
        defer { for part in parts { BN_clear_free(part) } }
        for name in names {
            var value: OpaquePointer? = nil
            guard EVP_PKEY_get_bn_param(pkey, name, &value) == 1, let value else {
                ERR_clear_error()
                return false
            }
            parts.append(value)
        }
        let (n, d, p, q, dp, dq, coefficient) = (parts[0], parts[1], parts[2], parts[3], parts[4], parts[5], parts[6])
        let agree =
            Self.multipliesTo(p, q, n, context) && Self.isRemainder(dp, of: d, moduloOneLessThan: p, context)
            && Self.isRemainder(dq, of: d, moduloOneLessThan: q, context)
            && Self.isInverse(coefficient, of: q, modulo: p, context)
        ERR_clear_error()
        return agree && decryptsItsOwnEncryption()
    }

    private static func multipliesTo(
        _ a: OpaquePointer, _ b: OpaquePointer, _ product: OpaquePointer,
        _ context: OpaquePointer
    ) -> Bool {
        guard let result = BN_new() else { return false }
        defer { BN_free(result) }
        return BN_mul(result, a, b, context) == 1 && BN_cmp(result, product) == 0
    }

    private static func isRemainder(
        _ remainder: OpaquePointer, of value: OpaquePointer, moduloOneLessThan prime: OpaquePointer,
        _ context: OpaquePointer
    ) -> Bool {
        guard let modulus = BN_dup(prime), let result = BN_new() else { return false }
        defer {
            BN_free(modulus)
            BN_clear_free(result)
        }
        return BN_sub_word(modulus, 1) == 1 && BN_is_zero(modulus) == 0
            && BN_div(nil, result, value, modulus, context) == 1 && BN_cmp(result, remainder) == 0
    }

    private static func isInverse(
        _ inverse: OpaquePointer, of value: OpaquePointer, modulo modulus: OpaquePointer, _ context: OpaquePointer
    ) -> Bool {
        guard let result = BN_new() else { return false }
        defer { BN_free(result) }
        return BN_is_zero(modulus) == 0 && BN_mod_mul(result, inverse, value, modulus, context) == 1
            && BN_is_one(result) == 1
    }

    /// Whether the raw private operation undoes the raw public one on a fixed value below the modulus.
    private func decryptsItsOwnEncryption() -> Bool {
        let probe = [0] + [UInt8](repeating: 0x5A, count: modulusByteCount - 1)
        guard let sealed = try? probe.withUnsafeBytes({ try encrypt($0, padding: .none) }),
            let opened = try? sealed.withUnsafeBytes({ try decrypt($0, padding: .none) })
        else { return false }
        return opened.withUnsafeBytes { $0.elementsEqual(probe) }
    }
}
