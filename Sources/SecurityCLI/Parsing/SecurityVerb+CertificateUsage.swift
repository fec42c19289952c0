extension SecurityVerb {
    /// The usage of the certificate, identity and key verbs, in macOS's layout.
    var certificateUsage: String {
        switch self {
        case .verifyCert:
            return """
                Usage: verify-cert [-c certFile] [-r rootCertFile] [-p policy] [-C] [-d date] [-n name] [-s host] [-LlNq]
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
        default:
            return usage
        }
    }
}
