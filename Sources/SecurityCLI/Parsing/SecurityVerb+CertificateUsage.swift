extension SecurityVerb {
    /// The usage of the certificate, identity and key verbs, in macOS's layout.
    var certificateUsage: String {
        switch self {
        case .verifyCert:
            return """
                Usage: verify-cert [-c certFile] [-r rootCertFile] [-p policy] [-C] [-d date] [-n name] [-s host] [-LlN]
                    -c certFile     Certificate to verify (PEM or DER). Can be specified multiple times, leaf first.
                    -r rootCertFile Root certificate, the only anchors. Can be specified multiple times.
                    -p policy       Verify policy: basic or ssl; default is basic (ssl when a name is given).
                    -C              Set client policy to true. Default is server policy. (ssl)
                    -d date         Date and time of the verification, YYYY-MM-DD-hh:mm:ss (time optional), in GMT.
                    -n name         Name to be verified. (ssl)
                    -s host         SSL host name for ssl policy (as -n).
                    -L              Use local certificates only (nothing is ever fetched from the network here).
                    -l              Leaf certificate is a CA (accepted: not an error here).
                    -N              Avoid searching any keychains (none is searched here).
                    -q              Quiet: no line on success.
                Exits with 0 when the chain is trusted, else prints the trust error and exits with 1.
                """
        case .findCertificate:
            return """
                Usage: find-certificate [-a] [-c name] [-e emailAddress] [-m] [-p] [-Z]
                    -a  Find all matching certificates, not just the first one
                    -c  Match on "name" when searching (the label contains it, ignoring case)
                    -e  Match on "emailAddress" when searching
                    -m  Show the email addresses in the certificate
                    -p  Output certificate in pem format
                    -Z  Print SHA-256 (and SHA-1) hash of the certificate
                """
        case .findIdentity:
            return """
                Usage: find-identity [-p policy] [-s string] [-v]
                    -p  Specify policy to evaluate: basic, ssl-client, ssl-server; default is basic
                    -s  Specify optional policy-specific string (a host name for ssl-server; else a label to match)
                    -v  Show valid identities only (default is to show all identities)
                """
        case .deleteCertificate, .deleteIdentity:
            let what = self == .deleteIdentity ? "identity (certificate and private key)" : "certificate"
            return """
                Usage: \(rawValue) [-c name] [-Z hash] [-t]
                    -c  Specify \(what) to delete by its common name (label)
                    -Z  Specify \(what) to delete by its SHA-256 or SHA-1 hash value
                    -t  Accepted for compatibility (this keychain keeps no user trust settings)
                """
        case .addCertificates:
            return """
                Usage: add-certificates certFile [certFile...]
                    Add certificates (PEM or DER; a PEM file may hold several) to the keychain.
                """
        case .importItems:
            return """
                Usage: import inputfile [-t type] [-f format] [-P passphrase] [-k keychain] [-w] [-x] [-A|-T appPath]
                    -t  Type of items: cert, pub, priv, agg (accepted; the file's contents decide)
                    -f  Format: openssl, pkcs8, pkcs12, x509, pemseq (accepted; the file's contents decide)
                    -P  Passphrase of a PKCS#12 file (leave it out to be asked for it, or pipe it on standard input)
                    -k  -w  -x  -A  -T  Accepted for compatibility
                """
        case .exportItems:
            return """
                Usage: export [-t type] [-f format] [-P passphrase] [-o outfile] [-p]
                    -t  Type of items: certs, privKeys, identities, all; default is all
                    -f  Format: pemseq, pkcs12; default is pemseq (pkcs12 for identities)
                    -P  Passphrase of a PKCS#12 file (leave it out to be asked for it, or pipe it on standard input)
                    -o  Write to this new file instead of standard output
                    -p  -w  -q  Accepted for compatibility (pemseq is PEM)
                """
        case .createKeypair:
            return """
                Usage: create-keypair [-a alg] [-s size] name
                    -a  Algorithm: rsa (default) or ecc
                    -s  Key size in bits: RSA 1024 to 4096 (default 2048), ECC 256, 384 or 521 (default 256)
                    -f  -t  -d  -A  -T  Accepted for compatibility
                    The private key is stored in the keychain with the label name.
                """
        default:
            return usage
        }
    }

    /// Verbs of certificates, identities and keys, parsed by `CommandParser.certificateCommand`.
    var isCertificateVerb: Bool {
        switch self {
        case .findCertificate, .findIdentity, .deleteCertificate, .deleteIdentity, .addCertificates, .importItems,
            .exportItems, .createKeypair:
            true
        default: false
        }
    }
}
