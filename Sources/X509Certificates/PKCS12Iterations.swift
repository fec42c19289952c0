@_implementationOnly import COpenSSL

/// The key-derivation iterations a PKCS#12 file asks for, counted before they run: the counts are the file's to
/// choose, and a 1 KB file asking for 2^31 would spin for minutes before its MAC is even checked.
package struct PKCS12Iterations {
    /// The most a file may ask for in all: its MAC's, its encrypted safes' and its shrouded keys' counts together
    /// (scrypt's N·r·p for a count). OpenSSL writes 2,048 for each and Java 10,000; this bound keeps the worst
    /// file to seconds of work.
    package static let maximum: Int64 = 5_000_000

    private(set) var total: Int64 = 0

    /// Counts the MAC's iterations and those the file shows unencrypted: each encrypted safe's own and those of
    /// the shrouded keys in its plain safes. No key derivation runs.
    mutating func addUnencrypted(_ archive: OpaquePointer, safes: OpaquePointer) throws(X509Error) {
        if PKCS12_mac_present(archive) == 1 {
            var iterations: UnsafePointer<ASN1_INTEGER>?
            PKCS12_get0_mac(nil, nil, nil, &iterations, archive)
            try add(iterations.map(Self.count) ?? 1)  // absent: DER's default of 1
        }
        for index in 0..<kossl_pkcs7_stack_count(safes) {
            guard let safe = kossl_pkcs7_stack_value(safes, index) else { continue }
            if let algorithm = kossl_pkcs7_encryption_algorithm(safe) {
                try add(Self.rounds(algorithm))
            } else if kossl_pkcs7_type(safe) == NID_pkcs7_data {
                let bags = PKCS12_unpack_p7data(safe)
                defer { if let bags { kossl_safebag_stack_free_all(bags) } }
                try addBags(bags)
            }
        }
    }

    /// Counts the shrouded keys inside the encrypted safes, which only their decryption shows (each bounded by
    /// `addUnencrypted`). `passphrase` is the one OpenSSL decrypts with: nil for none at all.
    mutating func addEncrypted(_ safes: OpaquePointer, passphrase: String?) throws(X509Error) {
        for index in 0..<kossl_pkcs7_stack_count(safes) {
            guard let safe = kossl_pkcs7_stack_value(safes, index), kossl_pkcs7_encryption_algorithm(safe) != nil
            else { continue }
            guard let bags = PKCS12_unpack_p7encdata(safe, passphrase, -1) else { throw PKCS12Archive.undecryptable }
            defer { kossl_safebag_stack_free_all(bags) }
            try addBags(bags)
        }
    }

    private mutating func add(_ count: Int64) throws(X509Error) {
        guard count <= Self.maximum - total else {
            throw .malformed(
                "the PKCS#12 file asks for more than \(Self.maximum) key-derivation iterations in all (its MAC and "
                    + "its encrypted contents); no more are run for one file")
        }
        total += count
    }

    /// The shrouded keys among `bags` and in the safe-contents bags nested there.
    private mutating func addBags(_ bags: OpaquePointer?) throws(X509Error) {
        guard let bags else { return }
        for index in 0..<kossl_safebag_stack_count(bags) {
            guard let bag = kossl_safebag_stack_value(bags, index) else { continue }
            switch PKCS12_SAFEBAG_get_nid(bag) {
            case NID_pkcs8ShroudedKeyBag:
                guard let shrouded = PKCS12_SAFEBAG_get0_pkcs8(bag) else { continue }
                var algorithm: UnsafePointer<X509_ALGOR>?
                X509_SIG_get0(shrouded, &algorithm, nil)
                if let algorithm { try add(Self.rounds(algorithm)) }
            case NID_safeContentsBag:
                try addBags(PKCS12_SAFEBAG_get0_safes(bag))
            default: continue
            }
        }
    }

    /// The rounds a password-based encryption derives its key with: PBES2's key derivation's, else the count of
    /// PKCS#5 v1 and PKCS#12 PBE. 0 when there is none to read: OpenSSL then refuses the algorithm itself.
    private static func rounds(_ algorithm: UnsafePointer<X509_ALGOR>) -> Int64 {
        parameters(of: algorithm) { identifier, cursor, length in
            if identifier == NID_pbes2 {
                guard let scheme = d2i_PBE2PARAM(nil, &cursor, length) else { return 0 }
                defer { PBE2PARAM_free(scheme) }
                return scheme.pointee.keyfunc.map { keyDerivationRounds(UnsafePointer($0)) } ?? 0
            }
            guard let parameters = d2i_PBEPARAM(nil, &cursor, length) else { return 0 }
            defer { PBEPARAM_free(parameters) }
            return parameters.pointee.iter.map { count(UnsafePointer($0)) } ?? 1
        }
    }

    /// PBKDF2's iteration count, or scrypt's N·r·p (its work, in block mixes).
    private static func keyDerivationRounds(_ algorithm: UnsafePointer<X509_ALGOR>) -> Int64 {
        parameters(of: algorithm) { identifier, cursor, length in
            switch identifier {
            case NID_id_pbkdf2:
                guard let parameters = d2i_PBKDF2PARAM(nil, &cursor, length) else { return 0 }
                defer { PBKDF2PARAM_free(parameters) }
                return parameters.pointee.iter.map { count(UnsafePointer($0)) } ?? 0
            case NID_id_scrypt:
                guard let parameters = d2i_SCRYPT_PARAMS(nil, &cursor, length) else { return 0 }
                defer { SCRYPT_PARAMS_free(parameters) }
                let factors = [
                    parameters.pointee.costParameter, parameters.pointee.blockSize,
                    parameters.pointee.parallelizationParameter,
                ]
                return factors.reduce(Int64(1)) { product, factor in
                    let (result, overflow) = product.multipliedReportingOverflow(
                        by: factor.map { count(UnsafePointer($0)) } ?? 0)
                    return overflow ? .max : result
                }
            default: return 0
            }
        }
    }

    /// Calls `read` with the algorithm's identifier and its parameters' DER, when they are a SEQUENCE.
    private static func parameters(
        of algorithm: UnsafePointer<X509_ALGOR>,
        _ read: (Int32, inout UnsafePointer<UInt8>?, Int) -> Int64
    ) -> Int64 {
        var identifier: OpaquePointer?
        var type: Int32 = 0
        var value: UnsafeRawPointer?
        X509_ALGOR_get0(&identifier, &type, &value, algorithm)
        guard type == V_ASN1_SEQUENCE, let sequence = value?.assumingMemoryBound(to: ASN1_STRING.self) else {
            return 0
        }
        var cursor = ASN1_STRING_get0_data(sequence)
        return read(OBJ_obj2nid(identifier), &cursor, Int(ASN1_STRING_length(sequence)))
    }

    /// A count as OpenSSL reads it: one below 1 runs a single round; one past Int64 is too many.
    private static func count(_ integer: UnsafePointer<ASN1_INTEGER>) -> Int64 {
        var value: Int64 = 0
        guard ASN1_INTEGER_get_int64(&value, integer) == 1 else { return .max }
        return max(value, 1)
    }
}
