import Foundation
import KeychainTestSupport
import Security

/// Certificates, keys and PKCS#12 files made with the `openssl` command into a temporary directory, once per test
/// process: a root, an intermediate and leaves (good, expired, client-only, issued by a CA:false intermediate),
/// certificates for parsing, and PKCS#12 files in OpenSSL's default and legacy formats.
final class CertificateFixtures: Sendable {
    let directory: URL

    private static let made = Result { try CertificateFixtures() }

    /// The fixtures, made on first use.
    static func shared() throws -> CertificateFixtures { try made.get() }

    private init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("certificate-fixtures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try ChildProcess.shell(Self.script, in: directory)
    }

    /// The bytes of a fixture file.
    func data(_ name: String) throws -> Data { try Data(contentsOf: directory.appendingPathComponent(name)) }

    /// The certificate in `<name>.der`.
    func certificate(_ name: String) throws -> SecCertificate {
        let bytes = try data("\(name).der")
        guard let certificate = SecCertificateCreateWithData(nil, bytes as CFData) else {
            throw FixtureError.failed("\(name).der does not parse")
        }
        return certificate
    }

    /// Runs `command` through the shell in the fixture directory and returns its standard output.
    func output(_ command: String) throws -> Data { try ChildProcess.shell(command, in: directory) }

    enum FixtureError: Error { case failed(String) }

    private static let script = #"""
        ec() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1.key"; }
        sign() { # name issuer days extfile-section
            openssl x509 -req -in "$1.csr" -CA "$2.pem" -CAkey "$2.key" -CAcreateserial -days "$3" \
                -extfile ext.cnf -extensions "$4" -out "$1.pem"
        }
        der() { openssl x509 -in "$1.pem" -outform DER -out "$1.der"; }
        dated() { # name startdate enddate extfile-section: issued by the intermediate for the dates given
            openssl ca -batch -config ca.cnf -cert intermediate.pem -keyfile intermediate.key -in "$1.csr" \
                -startdate "$2" -enddate "$3" -extfile ext.cnf -extensions "$4" -notext -out "$1.pem" 2>/dev/null
        }
        cat > ext.cnf <<'CNF'
        [root]
        basicConstraints = critical, CA:true
        keyUsage = critical, keyCertSign, cRLSign
        subjectKeyIdentifier = hash
        [intermediate]
        basicConstraints = critical, CA:true, pathlen:0
        keyUsage = critical, keyCertSign, cRLSign
        subjectKeyIdentifier = hash
        authorityKeyIdentifier = keyid
        [notca]
        basicConstraints = critical, CA:false
        subjectKeyIdentifier = hash
        [leaf]
        basicConstraints = CA:false
        keyUsage = critical, digitalSignature
        extendedKeyUsage = serverAuth
        subjectAltName = DNS:www.example.test, DNS:api.example.test, IP:192.0.2.7, email:ops@example.test
        subjectKeyIdentifier = hash
        [wild]
        basicConstraints = CA:false
        extendedKeyUsage = serverAuth
        subjectAltName = DNS:*.wild.example.test, DNS:f*.part.example.test
        [badusage]
        basicConstraints = CA:false
        keyUsage = critical, nonRepudiation
        extendedKeyUsage = serverAuth
        subjectAltName = DNS:www.example.test
        [critical]
        basicConstraints = CA:false
        extendedKeyUsage = serverAuth
        subjectAltName = DNS:www.example.test
        1.3.6.1.4.1.55555.1 = critical, ASN1:NULL
        [noeku]
        basicConstraints = CA:false
        keyUsage = critical, digitalSignature
        subjectAltName = DNS:www.example.test
        [anyeku]
        basicConstraints = CA:false
        keyUsage = critical, digitalSignature
        extendedKeyUsage = anyExtendedKeyUsage
        subjectAltName = DNS:www.example.test
        [mailca]
        basicConstraints = critical, CA:true
        keyUsage = critical, keyCertSign, cRLSign
        extendedKeyUsage = emailProtection
        [client]
        basicConstraints = CA:false
        keyUsage = critical, digitalSignature
        extendedKeyUsage = clientAuth
        subjectAltName = DNS:www.example.test
        [serverca]
        basicConstraints = critical, CA:true
        keyUsage = critical, keyCertSign, cRLSign
        extendedKeyUsage = serverAuth
        [clientca]
        basicConstraints = critical, CA:true
        keyUsage = critical, keyCertSign, cRLSign
        extendedKeyUsage = clientAuth
        [sgcca]
        basicConstraints = critical, CA:true
        keyUsage = critical, keyCertSign, cRLSign
        extendedKeyUsage = msSGC
        [nameca]
        basicConstraints = critical, CA:true
        keyUsage = critical, keyCertSign, cRLSign
        nameConstraints = critical, permitted;DNS:.allowed.test
        [nobcca]
        keyUsage = critical, keyCertSign, cRLSign
        [nokuca]
        basicConstraints = critical, CA:true
        keyUsage = critical, digitalSignature
        CNF
        cat > ca.cnf <<'CNF'
        [ca]
        default_ca = test
        [test]
        database = index.txt
        new_certs_dir = .
        serial = ca.serial
        default_md = sha256
        policy = anything
        [anything]
        commonName = supplied
        CNF
        : > index.txt
        echo 1000 > ca.serial

        ec root
        openssl req -x509 -new -key root.key -subj "/O=Example Test/CN=Example Test Root" -days 3650 \
            -addext "basicConstraints=critical,CA:true" -addext "keyUsage=critical,keyCertSign,cRLSign" -out root.pem
        ec intermediate
        openssl req -new -key intermediate.key -subj "/O=Example Test/CN=Example Test Intermediate" -out intermediate.csr
        sign intermediate root 3650 intermediate
        ec leaf
        openssl req -new -key leaf.key -subj "/O=Example Org/CN=www.example.test" -out leaf.csr
        sign leaf intermediate 365 leaf
        openssl req -new -key leaf.key -subj "/CN=expired.example.test" -out expired.csr
        dated expired 20200101000000Z 20210101000000Z leaf
        openssl req -new -key leaf.key -subj "/CN=client.example.test" -out client.csr
        sign client intermediate 365 client
        openssl req -new -key leaf.key -subj "/CN=wildcard" -out wild.csr
        sign wild intermediate 365 wild
        openssl req -new -key leaf.key -subj "/CN=badusage.example.test" -out badusage.csr
        sign badusage intermediate 365 badusage
        openssl req -new -key leaf.key -subj "/CN=critical.example.test" -out critical.csr
        sign critical intermediate 365 critical
        # A CA under the intermediate, whose pathlen:0 forbids it, and a leaf under that CA.
        ec sub
        openssl req -new -key sub.key -subj "/CN=Too Deep CA" -out sub.csr
        sign sub intermediate 3650 root
        openssl req -new -key leaf.key -subj "/CN=deep.example.test" -out deep.csr
        sign deep sub 365 leaf
        ec notca
        openssl req -new -key notca.key -subj "/CN=Not A CA" -out notca.csr
        sign notca root 3650 notca
        openssl req -new -key leaf.key -subj "/CN=under.example.test" -out under.csr
        sign under notca 365 leaf
        # Without extendedKeyUsage, issued today and before Apple required serverAuth (1 July 2019); anyEKU alone.
        openssl req -new -key leaf.key -subj "/CN=noeku.example.test" -out noeku.csr
        sign noeku intermediate 365 noeku
        openssl req -new -key leaf.key -subj "/CN=old.example.test" -out old.csr
        dated old 20190601000000Z 20991231235959Z noeku
        openssl req -new -key leaf.key -subj "/CN=anyeku.example.test" -out anyeku.csr
        sign anyeku intermediate 365 anyeku
        # A CA whose extendedKeyUsage allows e-mail only.
        ec mailca
        openssl req -new -key mailca.key -subj "/CN=Mail Only CA" -out mailca.csr
        sign mailca root 3650 mailca
        # Leaves under CAs whose extendedKeyUsage allows another role only (or a legacy server purpose).
        for name in mailleaf mailclient underclientca underserverca clientunderclientca undersgcca; do
            openssl req -new -key leaf.key -subj "/CN=$name.example.test" -out "$name.csr"
        done
        sign mailleaf mailca 365 leaf
        sign mailclient mailca 365 client
        for ca in serverca clientca sgcca; do
            ec "$ca"
            openssl req -new -key "$ca.key" -subj "/CN=$ca" -out "$ca.csr"
            sign "$ca" root 3650 "$ca"
        done
        sign underclientca clientca 365 leaf
        sign underserverca serverca 365 client
        sign clientunderclientca clientca 365 client
        sign undersgcca sgcca 365 leaf
        # Issuers Apple finds fault with: a name constraint the leaf breaks, no basicConstraints, no keyCertSign.
        for ca in nameca nobcca nokuca; do
            ec "$ca"
            openssl req -new -key "$ca.key" -subj "/CN=$ca" -out "$ca.csr"
            sign "$ca" root 3650 "$ca"
            openssl req -new -key leaf.key -subj "/CN=under$ca.example.test" -out "under$ca.csr"
            sign "under$ca" "$ca" 365 leaf
        done
        # Weak cryptography: RSA keys of 512, 1,024 and 2,048 bits, MD5 and SHA-1 signatures, an EC P-224 key.
        openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out rsaroot.key 2>/dev/null
        openssl req -x509 -new -key rsaroot.key -subj "/CN=RSA Test Root" -days 3650 \
            -addext "basicConstraints=critical,CA:true" -addext "keyUsage=critical,keyCertSign,cRLSign" -out rsaroot.pem
        openssl req -x509 -new -md5 -key rsaroot.key -subj "/CN=MD5 Self-Signed" -days 3650 \
            -addext "basicConstraints=critical,CA:true" -out md5root.pem
        for bits in 512 1024; do
            openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:$bits -out rsa$bits.key 2>/dev/null
            openssl req -new -key rsa$bits.key -subj "/CN=rsa$bits.example.test" -out rsa$bits.csr
            sign rsa$bits root 365 leaf
        done
        openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-224 -out p224.key
        openssl req -new -key p224.key -subj "/CN=p224.example.test" -out p224.csr
        sign p224 root 365 leaf
        for digest in md5 sha1; do
            openssl req -new -key leaf.key -subj "/CN=$digest.example.test" -out $digest.csr
            openssl x509 -req -$digest -in $digest.csr -CA rsaroot.pem -CAkey rsaroot.key -CAcreateserial -days 365 \
                -extfile ext.cnf -extensions leaf -out $digest.pem 2>/dev/null
        done
        for name in root intermediate leaf expired client wild badusage critical sub deep notca under noeku old anyeku \
            mailca mailleaf mailclient serverca clientca sgcca underclientca underserverca clientunderclientca undersgcca \
            rsaroot md5root rsa512 rsa1024 p224 md5 sha1 nameca nobcca nokuca undernameca undernobcca undernokuca; do
            der "$name"
        done
        cat intermediate.pem root.pem > chain.pem

        # Parsing: PrintableString values to normalize, an RSA key, a chosen serial number, e-mail addresses.
        header='[req]\ndistinguished_name = dn\nprompt = no\nstring_mask = nombstr\n[dn]\nC = JP\n'
        printf "$header"'O = "  Example   org  "\nOU = "dev_ops  team"\nCN = "mixed  Case "\n' > mixed.cnf
        openssl req -x509 -newkey rsa:2048 -nodes -keyout mixed.key -config mixed.cnf -days 30 -set_serial 0x00ff0102 \
            -out mixed.pem 2>/dev/null
        printf "$header"'O = "EXAMPLE ORG"\nOU = "dev_ops  team"\nCN = "MIXED CASE"\n' > folded.cnf
        openssl req -x509 -new -key mixed.key -config folded.cnf -days 30 -out folded.pem
        openssl req -x509 -new -key leaf.key -subj "/O=Mail Only/emailAddress=first@example.test" -days 30 \
            -addext "subjectAltName=email:san@example.test" -out mail.pem
        openssl req -x509 -new -key leaf.key -subj "/O=Org Only/OU=Unit Only" -days 30 -out unit.pem
        for name in mixed folded mail unit; do der "$name"; done

        # PKCS#12: OpenSSL 3's default (PBES2, AES-256-CBC) and the legacy RC2/3DES format.
        openssl pkcs12 -export -inkey leaf.key -in leaf.pem -certfile chain.pem -name "My Identity" \
            -passout pass:correct-horse -out default.p12
        openssl pkcs12 -export -legacy -inkey leaf.key -in leaf.pem -certfile chain.pem -name "My Identity" \
            -passout pass:correct-horse -out legacy.p12
        # Every count 65,536 (DER 02 03 01 00 00), with and without a MAC: the iteration tests patch them in place.
        openssl pkcs12 -export -inkey leaf.key -in leaf.pem -certfile chain.pem -iter 65536 \
            -passout pass:correct-horse -out counted.p12
        openssl pkcs12 -export -nomac -inkey leaf.key -in leaf.pem -certfile chain.pem -iter 65536 \
            -passout pass:correct-horse -out counted-nomac.p12
        openssl pkcs8 -topk8 -nocrypt -in leaf.key -outform DER -out leaf.pkcs8
        """#
}
