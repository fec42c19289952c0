import Foundation
import KeychainTestSupport
import Testing

/// The `security` command's certificate and key verbs through keychaind: items go to the daemon's keychain, as
/// the identity it gives the command, never to an embedded keychain of the command's own.
@Suite(.serialized) struct SecurityCertificateVerbsTests {
    /// A self-signed certificate made by the `openssl` command in `directory`.
    private static func certificate(in directory: URL) throws -> String {
        try ChildProcess.shell(
            "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout key.pem -out cert.pem "
                + "-days 30 -subj '/CN=daemon.example.test' 2>/dev/null",
            in: directory)
        return directory.appendingPathComponent("cert.pem").path
    }

    @Test func certificateVerbsGoToTheDaemonsKeychainAsTheCommandsIdentity() throws {
        let fixture = try OwnerRightsTests.Fixture()
        let embedded = try #require(fixture.environment["KEYCHAIN_HOME"])
        let certificate = try Self.certificate(in: URL(fileURLWithPath: fixture.apps.directory))

        let added = try fixture.security(["--app", "add-certificates", certificate])
        #expect(added.status == 0, "\(added.errorText)")
        let found = try fixture.security(["--app", "find-certificate", "-a", "-c", "daemon.example.test"])
        #expect(found.status == 0, "\(found.errorText)")
        #expect(found.outputText.contains("daemon.example.test"))
        // The daemon holds it: the command's own keychain was never made.
        #expect(!FileManager.default.fileExists(atPath: embedded))
        #expect(fixture.daemon.log.contains("security"))

        // App A, another identity, does not see the command's certificate; the command deletes its own.
        #expect(try fixture.apps.run(fixture.apps.appA, "get", "daemon.example.test")["status"] == "-25300")
        let deleted = try fixture.security(["--app", "delete-certificate", "-c", "daemon.example.test"])
        #expect(deleted.status == 0, "\(deleted.errorText)")
        let gone = try fixture.security(["--app", "find-certificate", "-a", "-c", "daemon.example.test"])
        #expect(gone.status != 0)
        #expect(!gone.outputText.contains("daemon.example.test"))
    }
}
