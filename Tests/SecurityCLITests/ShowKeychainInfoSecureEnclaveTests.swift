import Foundation
import KeychainCore
import Testing

@testable import SecurityCLI

#if canImport(Glibc)
    import Glibc
#endif

/// `show-keychain-info` says what keeps SecureEnclave keys: a TPM, the administrator's software enclave (never
/// passed off as hardware), or nothing.
@Suite(.serialized) struct ShowKeychainInfoSecureEnclaveTests {
    /// A setting file of this test's own, whose administrator is the user running it.
    final class SettingFile {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cli-enclave-\(UUID())")
        var setting: SecureEnclaveSetting {
            SecureEnclaveSetting(path: directory.appendingPathComponent("secure-enclave").path, administrator: getuid())
        }

        init(_ contents: String, mode: mode_t) throws {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
            chmod(directory.path, 0o755)
            try Data(contents.utf8).write(to: URL(fileURLWithPath: setting.path))
            chmod(setting.path, mode)
        }

        deinit { try? FileManager.default.removeItem(at: directory) }
    }

    /// The Secure Enclave line and the JSON's three values, with `tcti` (empty: no TPM) and `setting`.
    private func report(tcti: String, setting: SettingFile?) -> (line: String?, json: [String: Any]) {
        let absent = SecureEnclaveSetting(path: "/nonexistent-\(UUID())/secure-enclave", administrator: 0)
        return SecureEnclaveBacking.$tctiOverride.withValue(tcti) {
            SecureEnclaveSetting.$override.withValue(setting?.setting ?? absent) {
                let harness = CommandHarness()
                let run = harness.run(["show-keychain-info"])
                #expect(run.exitCode == 0)
                let line = run.output.split(separator: "\n").map(String.init).first { $0.contains("Secure Enclave") }
                return withExtendedLifetime(setting) { (line, (try? harness.info()) ?? [:]) }
            }
        }
    }

    @Test func noTPMAndNoOptInIsNone() {
        let (line, json) = report(tcti: "", setting: nil)
        #expect(line == "    Secure Enclave: none")
        #expect(json["secureEnclave"] as? String == "none")
        #expect(json["secureEnclaveDevice"] is NSNull)
        #expect(json["secureEnclaveHardwareBacked"] as? Bool == false)
    }

    @Test func theSoftwareEnclaveSaysItIsNotHardware() throws {
        let (line, json) = report(tcti: "", setting: try SettingFile("software\n", mode: 0o644))
        #expect(line == "    Secure Enclave: software (administrator opt-in, not hardware-backed)")
        #expect(json["secureEnclave"] as? String == "software")
        #expect(json["secureEnclaveDevice"] is NSNull)
        #expect(json["secureEnclaveHardwareBacked"] as? Bool == false)
    }

    @Test func anOptInOthersMayWriteIsNone() throws {
        let (line, json) = report(tcti: "", setting: try SettingFile("software\n", mode: 0o666))
        #expect(line == "    Secure Enclave: none")
        #expect(json["secureEnclave"] as? String == "none")
    }

    @Test func aTPMIsNamedByItsDevice() throws {
        let (line, json) = report(tcti: "device:/dev/tpmrm0", setting: try SettingFile("software\n", mode: 0o644))
        #expect(line == "    Secure Enclave: TPM 2.0 (/dev/tpmrm0)")
        #expect(json["secureEnclave"] as? String == "tpm")
        #expect(json["secureEnclaveDevice"] as? String == "/dev/tpmrm0")
        #expect(json["secureEnclaveHardwareBacked"] as? Bool == true)
        let (swtpm, _) = report(tcti: "swtpm:host=127.0.0.1,port=2321", setting: nil)
        #expect(swtpm == "    Secure Enclave: TPM 2.0 (swtpm:host=127.0.0.1,port=2321)")
    }

    @Test func aHostileTCTIIsEscaped() {
        let (line, _) = report(tcti: "swtpm:\u{1B}[2J", setting: nil)
        #expect(line?.contains("\u{1B}") == false)
    }
}
