import Foundation
import KeychainTestSupport

/// Certificates, keys and PKCS#12 files made by the `openssl` command once per test process, for the
/// certificate verbs: a root, an intermediate, a leaf for www.example.test, an expired leaf, an RSA identity,
/// PKCS#12 files in OpenSSL 3's default format and with `-legacy`, a second identity from the same CA and the
/// chain alone as PKCS#12.
final class CertificateFiles: Sendable {
    let directory: URL

    private static let made = Result { try CertificateFiles() }

    static func shared() throws -> CertificateFiles { try made.get() }

    private init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("certificate-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try ChildProcess.shell(Self.script, in: directory)
    }

    /// The path of a fixture file.
    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// The bytes of a fixture file.
    func data(_ name: String) throws -> Data { try Data(contentsOf: directory.appendingPathComponent(name)) }

    /// Runs a shell command in the fixture directory; its standard output.
    @discardableResult
    func shell(_ command: String) throws -> Data { try ChildProcess.shell(command, in: directory) }

    private static let script = #"""
        cat > ext.cnf <<'CNF'
        [intermediate]
        basicConstraints = critical, CA:true, pathlen:0
        keyUsage = critical, keyCertSign, cRLSign
        [leaf]
        basicConstraints = CA:false
        keyUsage = critical, digitalSignature, keyEncipherment
        extendedKeyUsage = serverAuth, clientAuth
        subjectAltName = DNS:www.example.test, email:ops@example.test
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
        for name in root intermediate leaf; do
            openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$name.key"
        done
        openssl req -x509 -new -key root.key -subj "/O=Example Test/CN=Example Test Root" -days 3650 \
            -addext "basicConstraints=critical,CA:true" -addext "keyUsage=critical,keyCertSign,cRLSign" -out root.pem
        openssl req -new -key intermediate.key -subj "/O=Example Test/CN=Example Test Intermediate" -out intermediate.csr
        openssl x509 -req -in intermediate.csr -CA root.pem -CAkey root.key -CAcreateserial -days 3650 \
            -extfile ext.cnf -extensions intermediate -out intermediate.pem
        openssl req -new -key leaf.key -subj "/O=Example Org/CN=www.example.test" -out leaf.csr
        openssl x509 -req -in leaf.csr -CA intermediate.pem -CAkey intermediate.key -CAcreateserial -days 365 \
            -extfile ext.cnf -extensions leaf -out leaf.pem
        openssl req -new -key leaf.key -subj "/CN=expired.example.test" -out expired.csr
        openssl ca -batch -config ca.cnf -cert intermediate.pem -keyfile intermediate.key -in expired.csr \
            -startdate 20200101000000Z -enddate 20210101000000Z -extfile ext.cnf -extensions leaf -notext \
            -out expired.pem 2>/dev/null
        cat intermediate.pem root.pem > chain.pem
        openssl x509 -in leaf.pem -outform DER -out leaf.der
        openssl pkcs12 -export -inkey leaf.key -in leaf.pem -certfile chain.pem -name "My Identity" \
            -passout pass:correct-horse -out default.p12
        openssl pkcs12 -export -legacy -inkey leaf.key -in leaf.pem -certfile chain.pem -name "My Identity" \
            -passout pass:correct-horse -out legacy.p12
        openssl req -x509 -newkey rsa:2048 -nodes -keyout rsa.key -subj "/CN=RSA Client" -days 30 -out rsa.pem \
            2>/dev/null
        openssl pkcs12 -export -inkey rsa.key -in rsa.pem -passout pass: -out rsa.p12
        openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out second.key
        openssl req -new -key second.key -subj "/O=Example Org/CN=second.example.test" -out second.csr
        openssl x509 -req -in second.csr -CA intermediate.pem -CAkey intermediate.key -CAcreateserial -days 365 \
            -extfile ext.cnf -extensions leaf -out second.pem
        openssl pkcs12 -export -inkey second.key -in second.pem -certfile chain.pem -name "Second Identity" \
            -passout pass:correct-horse -out second.p12
        openssl pkcs12 -export -nokeys -in chain.pem -passout pass:correct-horse -out chain.p12
        """#
}
