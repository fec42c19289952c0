import Foundation
import KeychainCrypto
import Security
import X509Certificates

/// Seeds for the certificate and pkcs12 targets, made by the `openssl` command at generation time (small keys and
/// one iteration where a file allows it, so that the fuzzer runs fast), then damaged copies.
extension SeedCorpus {
    static func certificates() -> [[UInt8]] {
        let files = OpenSSLSeeds.shared
        let names = ["ec-leaf", "rsa-ca", "p384-leaf", "p521-self", "ed25519-self", "multivalue", "v1"]
        var seeds = names.map { files.bytes("\($0).der") }
        let leaf = files.bytes("ec-leaf.der")
        seeds.append(Array(leaf.prefix(leaf.count / 2)))  // truncated
        seeds.append(leaf + [0])  // a byte after the certificate
        seeds.append(files.bytes("ec-leaf.pem"))  // PEM, which only DER callers reject
        var badSignature = leaf
        badSignature[badSignature.count - 3] ^= 0x01
        seeds.append(badSignature)
        // BER: the outer length in a longer form than needed, which must not re-encode as DER.
        if leaf.count > 4, leaf[1] == 0x82 { seeds.append([0x30, 0x83, 0x00] + leaf[2...]) }
        return seeds
    }

    static func pkcs12Files() -> [[UInt8]] {
        let files = OpenSSLSeeds.shared
        let names = [
            "ec-cheap.p12", "rsa-chain-cheap.p12", "legacy.p12", "certificates-only.p12", "key-only.p12",
            "no-mac.p12", "default.p12", "wrong-passphrase.p12", "plain-bags.p12", "plain-rsa-chain.p12",
        ]
        var seeds = names.map { files.bytes($0) }
        if let exported = projectExport(files) { seeds.append(exported) }
        let cheap = files.bytes("ec-cheap.p12")
        seeds.append(Array(cheap.prefix(cheap.count - 40)))
        seeds.append(cheap + [0])
        return seeds
    }

    /// A PKCS#12 file written by the project's own exporter.
    private static func projectExport(_ files: OpenSSLSeeds) -> [UInt8]? {
        guard let certificate = try? X509Certificate(der: files.bytes("rsa-ca.der")) else { return nil }
        return try? PKCS12Archive.export(
            privateKey: nil, certificate: certificate, chain: [], friendlyName: "seed",
            passphrase: PKCS12Fuzzing.passphrase)
    }
}

/// The files `openssl` makes for the seeds, in a temporary directory removed once read.
struct OpenSSLSeeds {
    private let files: [String: [UInt8]]

    static let shared = OpenSSLSeeds()

    private init() {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("keychain-fuzz-seeds-\(getpid())", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-euc", Self.script]
            process.currentDirectoryURL = directory
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { fatalError("openssl could not make the seed files") }
            var files: [String: [UInt8]] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
                files[name] = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path)
                    .map { Array($0) }
            }
            self.files = files
        } catch {
            fatalError("cannot make the seed files: \(error)")
        }
    }

    func bytes(_ name: String) -> [UInt8] {
        guard let bytes = files[name] else { fatalError("openssl made no \(name)") }
        return bytes
    }

    /// PrintableString names (string_mask default) with lower case and runs of blanks, for the normalizer.
    private static let script = #"""
        exec 2>/dev/null
        cat > req.cnf <<'CNF'
        [req]
        distinguished_name = dn
        string_mask = default
        prompt = no
        [dn]
        [leaf]
        subjectAltName = DNS:fuzz.example.com, email:alice@example.com
        basicConstraints = CA:false
        keyUsage = digitalSignature
        extendedKeyUsage = serverAuth
        [ca]
        basicConstraints = critical, CA:true
        keyUsage = critical, keyCertSign
        subjectKeyIdentifier = hash
        CNF
        ec() { openssl genpkey -algorithm EC -pkeyopt "ec_paramgen_curve:$2" -out "$1.key"; }
        ec ec P-256; ec p384 P-384; ec p521 P-521
        openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024 -out rsa.key
        openssl genpkey -algorithm ED25519 -out ed.key
        openssl req -config req.cnf -x509 -key rsa.key -days 3650 -extensions ca \
            -subj "/C=US/O=  fuzz   example  org /CN=Fuzz Root" -out rsa-ca.pem
        openssl req -config req.cnf -new -key ec.key -out ec.csr \
            -subj "/C=US/O=Example/OU=fuzzing  unit/CN=fuzz.example.com/emailAddress=alice@example.com"
        openssl x509 -req -in ec.csr -CA rsa-ca.pem -CAkey rsa.key -set_serial 0x0102030405 -days 3650 \
            -extfile req.cnf -extensions leaf -out ec-leaf.pem
        openssl req -config req.cnf -new -key p384.key -subj "/CN=p384" -out p384.csr
        openssl x509 -req -in p384.csr -CA rsa-ca.pem -CAkey rsa.key -set_serial 7 -days 30 -out p384-leaf.pem
        openssl req -config req.cnf -x509 -key p521.key -subj "/O=p521 only" -days 30 -out p521-self.pem
        openssl req -config req.cnf -x509 -key ed.key -subj "/CN=ed25519" -days 30 -out ed25519-self.pem
        openssl req -config req.cnf -x509 -key ec.key -multivalue-rdn -subj "/CN=a+OU=b/O=c" -days 30 \
            -out multivalue.pem
        openssl x509 -req -in p384.csr -signkey p384.key -days 30 -out v1.pem
        for name in rsa-ca ec-leaf p384-leaf p521-self ed25519-self multivalue v1; do
            openssl x509 -in "$name.pem" -outform DER -out "$name.der"
        done
        p12() { out=$1; shift; openssl pkcs12 -export -passout pass:fuzz -name seed "$@" -out "$out"; }
        p12 ec-cheap.p12 -inkey ec.key -in ec-leaf.pem -iter 1 -nomaciter
        p12 rsa-chain-cheap.p12 -inkey rsa.key -in rsa-ca.pem -certfile ec-leaf.pem -iter 1 -nomaciter
        p12 legacy.p12 -legacy -inkey ec.key -in ec-leaf.pem -iter 1 -nomaciter
        p12 certificates-only.p12 -nokeys -in ec-leaf.pem -certfile rsa-ca.pem -iter 1 -nomaciter
        p12 key-only.p12 -nocerts -inkey p384.key -iter 1 -nomaciter
        p12 no-mac.p12 -inkey ec.key -in ec-leaf.pem -iter 1 -nomac
        p12 default.p12 -inkey ec.key -in ec-leaf.pem
        p12 plain-bags.p12 -inkey ec.key -in ec-leaf.pem -certpbe NONE -keypbe NONE -nomaciter
        p12 plain-rsa-chain.p12 -inkey rsa.key -in rsa-ca.pem -certfile p384-leaf.pem -certpbe NONE -keypbe NONE \
            -nomaciter
        openssl pkcs12 -export -passout pass:other -inkey ec.key -in ec-leaf.pem -iter 1 -nomaciter \
            -out wrong-passphrase.p12
        rm -f ./*.key ./*.csr
        """#
}
