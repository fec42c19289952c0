import Foundation
import KeychainCore
import KeychainRequests
import KeychainTestSupport
import Security
import Testing

/// The certificate search keys of `SecItemCopyMatching` through keychaind: the face applies them to what the
/// daemon finds, so limits and every return type come out as in process.
@Suite(.serialized) struct DaemonCertificateMatchTests {
    /// Two self-signed certificates made by the `openssl` command, for alpha.daemon.test and beta.daemon.test.
    private static func certificates() throws -> [SecCertificate] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("match-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try ["alpha", "beta"].map { name in
            try ChildProcess.shell(
                "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout \(name).key "
                    + "-subj '/CN=\(name).daemon.test' -addext 'subjectAltName=DNS:\(name).daemon.test' -days 30 "
                    + "-outform DER -out \(name).der 2>/dev/null",
                in: directory)
            let der = try Data(contentsOf: directory.appendingPathComponent("\(name).der"))
            return try #require(SecCertificateCreateWithData(nil, der as CFData))
        }
    }

    /// Runs `body` with the SecItem functions served by `daemon`, as with `KEYCHAIN_SOCKET`.
    private func throughDaemon<R>(_ daemon: DaemonProcess, _ body: () throws -> R) rethrows -> R {
        let service = DaemonKeychainService(socketPath: daemon.socketPath)
        return try ProcessKeychain.$taskKeychain.withValue(nil) {
            try ProcessKeychainService.$taskService.withValue(service, operation: body)
        }
    }

    private func lookUp(_ query: [CFString: Any]) -> (OSStatus, AnyObject?) {
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return (status, result)
    }

    @Test func theKeysFilterWhatTheDaemonFindsBeforeTheLimit() throws {
        let daemon = try DaemonProcess()
        let certificates = try Self.certificates()
        let (alpha, beta) = (certificates[0], certificates[1])
        try throughDaemon(daemon) {
            for certificate in certificates {
                #expect(SecItemAdd([kSecValueRef: certificate] as CFDictionary, nil) == errSecSuccess)
            }
            let betaName = try #require(SecCertificateCopyNormalizedSubjectSequence(beta) as Data?)
            let base: [CFString: Any] = [kSecClass: kSecClassCertificate, kSecMatchIssuers: [betaName]]
            var ref = base
            ref[kSecReturnRef] = true
            #expect(lookUp(ref).1 as? SecCertificate == beta)
            var data = base
            data[kSecReturnData] = true
            #expect(lookUp(data).1 as? Data == SecCertificateCopyData(beta) as Data)
            var attributes = base
            attributes[kSecReturnAttributes] = true
            attributes[kSecMatchLimit] = kSecMatchLimitAll
            let found = try #require(lookUp(attributes).1 as? [[String: Any]])
            #expect(found.map { $0[kSecAttrLabel as String] as? String } == ["beta.daemon.test"])
            var persistent = base
            persistent[kSecReturnPersistentRef] = true
            let reference = try #require(lookUp(persistent).1 as? Data)
            #expect(lookUp([kSecValuePersistentRef: reference, kSecReturnRef: true]).1 as? SecCertificate == beta)
            // A limit of one with a policy: the first item that passes, not the first the daemon found.
            let forAlpha: [CFString: Any] = [
                kSecClass: kSecClassCertificate, kSecReturnRef: true,
                kSecMatchPolicy: SecPolicyCreateSSL(true, "alpha.daemon.test" as CFString),
                kSecMatchSubjectEndsWith: ".daemon.test",
            ]
            #expect(lookUp(forAlpha).1 as? SecCertificate == alpha)
            let nowhere: [CFString: Any] = [kSecClass: kSecClassCertificate, kSecMatchSubjectContains: "gamma"]
            #expect(lookUp(nowhere).0 == errSecItemNotFound)
            #expect(lookUp([kSecClass: kSecClassCertificate, kSecMatchValidOnDate: "now"]).0 == errSecParam)
            #expect(SecItemDelete(base as CFDictionary) == errSecParam)
        }
    }
}
