import Foundation
import Testing

@testable import SecurityCLI

/// `security verify-cert`: macOS's options and exit codes over a chain made by `openssl` (root, intermediate,
/// a leaf for www.example.test, an expired leaf).
@Suite struct VerifyCertCommandTests {
    let files: CertificateFiles
    let harness = CommandHarness()

    init() throws { files = try CertificateFiles.shared() }

    /// `verify-cert` with the leaf, the intermediate and the root as the only anchor, then `extra`.
    func verify(_ leaf: String = "leaf.pem", _ extra: [String] = []) -> CommandHarness.Run {
        harness.run(
            ["verify-cert", "-c", files.path(leaf), "-c", files.path("intermediate.pem"), "-r", files.path("root.pem")]
                + extra)
    }

    @Test func aGoodChainIsVerified() {
        let run = verify()
        #expect(run.exitCode == 0)
        #expect(run.output == "...certificate verification successful.\n")
        #expect(run.errors.isEmpty)
        #expect(verify("leaf.pem", ["-p", "ssl", "-s", "www.example.test"]).exitCode == 0)
        #expect(verify("leaf.pem", ["-p", "ssl", "-n", "WWW.example.test."]).exitCode == 0)
        #expect(verify("leaf.pem", ["-q"]).output.isEmpty)
        let quiet = harness.run([
            "-q", "verify-cert", "-c", files.path("leaf.der"), "-c", files.path("chain.pem"),
            "-r", files.path("root.pem"),
        ])
        #expect(quiet.exitCode == 0 && quiet.output.isEmpty && quiet.errors.isEmpty)
    }

    @Test func aWrongHostFailsWithTheTrustErrorsText() {
        let run = verify("leaf.pem", ["-p", "ssl", "-s", "other.example.test"])
        #expect(run.exitCode == 1)
        #expect(run.output.isEmpty)
        #expect(
            run.errors == """
                Cert Verify Result: “www.example.test” certificate name does not match input
                Certificate 0 “www.example.test” has errors: SSL hostname does not match name(s) in certificate;

                """)
        // A host name alone means the SSL policy.
        #expect(verify("leaf.pem", ["-s", "other.example.test"]).exitCode == 1)
        // The basic policy checks no name.
        #expect(verify("leaf.pem", ["-p", "basic", "-s", "other.example.test"]).exitCode == 0)
    }

    @Test func anExpiredLeafFailsUnlessTheDateIsInItsValidity() {
        let run = verify("expired.pem")
        #expect(run.exitCode == 1)
        #expect(run.errors.hasPrefix("Cert Verify Result: “expired.example.test” certificate is expired\n"))
        // -d moves the evaluation: before the chain was made, the leaf is not valid yet (Apple's "expired").
        let early = verify("leaf.pem", ["-d", "2020-06-01-12:00:00"])
        #expect(early.exitCode == 1)
        #expect(early.errors.hasPrefix("Cert Verify Result: “www.example.test” certificate is expired\n"))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd-HH:mm:ss"
        #expect(verify("leaf.pem", ["-d", formatter.string(from: Date() + 30 * 86_400)]).exitCode == 0)
        #expect(verify("leaf.pem", ["-d", formatter.string(from: Date() + 400 * 86_400)]).exitCode == 1)
    }

    @Test func withoutTheRootAsAnchorTheChainIsNotTrusted() {
        let run = harness.run(["verify-cert", "-c", files.path("leaf.pem"), "-c", files.path("chain.pem")])
        #expect(run.exitCode == 1)
        #expect(run.errors.hasPrefix("Cert Verify Result: “Example Test Root” certificate is not trusted\n"))
        let missing = harness.run(["verify-cert", "-c", files.path("leaf.pem"), "-r", files.path("root.pem")])
        #expect(missing.exitCode == 1)
        #expect(missing.errors.hasPrefix("Cert Verify Result: “www.example.test” certificate is not trusted"))
    }

    @Test func jsonSaysWhetherTheChainIsTrustedAndWhy() throws {
        let good = verify("leaf.pem", ["--json"])
        #expect(good.exitCode == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(good.output.utf8)) as? [String: Any])
        #expect(object["trusted"] as? Bool == true)
        let chain = try #require(object["chain"] as? [[String: String]])
        #expect(chain.map { $0["subject"] } == ["www.example.test", "Example Test Intermediate", "Example Test Root"])
        let fingerprint = try files.shell("openssl x509 -in leaf.pem -noout -fingerprint -sha1")
        let hex = String(decoding: fingerprint, as: UTF8.self).split(separator: "=").last.map {
            $0.replacingOccurrences(of: ":", with: "").trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(chain.first?["sha1"] == hex)

        let bad = verify("leaf.pem", ["-s", "other.example.test", "--json"])
        #expect(bad.exitCode == 1)
        let failure = try #require(try JSONSerialization.jsonObject(with: Data(bad.output.utf8)) as? [String: Any])
        #expect(failure["trusted"] as? Bool == false)
        let error = try #require(failure["error"] as? [String: Any])
        #expect(error["status"] as? Int == -67602)
        #expect(error["message"] as? String == "“www.example.test” certificate name does not match input")
    }

    @Test func filesThatCannotBeReadOrHoldNoCertificateFail() {
        let missing = harness.run(["verify-cert", "-c", files.path("absent.pem")])
        #expect(missing.exitCode == 220)  // errSecIO, -36
        #expect(missing.errors.hasPrefix("security: SecTrustEvaluateWithError: "))
        #expect(missing.errors.contains("cannot read \(files.path("absent.pem"))"))
        let notACertificate = harness.run(["verify-cert", "-c", files.path("ext.cnf")])
        #expect(notACertificate.exitCode == 93)  // errSecDecode, -26275
        #expect(notACertificate.errors.contains("holds no certificate (PEM or DER)"))
    }

    @Test(arguments: [
        (["verify-cert"], "security: -c is required"),
        (["verify-cert", "-c", "x", "-p", "smime"], "security: -p needs one of basic, ssl, not \"smime\""),
        (["verify-cert", "-c", "x", "-R", "ocsp"], "security: -R: revocation checking (OCSP, CRL) is not supported"),
        (["verify-cert", "-c", "x", "-d", "2020-13-01"], "security: -d needs a date in GMT as YYYY-MM-DD-hh:mm:ss"),
        (["verify-cert", "-c", "x", "-k", "login.keychain"], "security: naming a keychain (\"login.keychain\")"),
    ])
    func usageErrorsExitWith64(arguments: [String], message: String) {
        let run = harness.run(arguments)
        #expect(run.exitCode == 64)
        #expect(run.errors.hasPrefix(message))
    }

    @Test func macOSDatesAreReadInGMT() {
        #expect(CommandParser.verifyDate("2016-04-25-15:59:59") == Date(timeIntervalSince1970: 1_461_599_999))
        #expect(CommandParser.verifyDate("2016-04-25") == Date(timeIntervalSince1970: 1_461_542_400))
        for bad in ["2016-04-25-25:00:00", "2016-4", "16-04-25", "2016-04-25-1:2", "2016-04-+5", "2016-02-30", ""] {
            #expect(CommandParser.verifyDate(bad) == nil, "\(bad)")
        }
    }

    @Test func theVerbIsListedAndHasItsUsage() {
        #expect(harness.run(["help"]).output.contains("verify-cert                 Verify a certificate chain."))
        #expect(harness.run(["verify-cert", "-h"]).errors.hasPrefix("Usage: verify-cert [-c certFile]"))
    }
}
