import CryptoKitOpenSSL
import Foundation
import KeychainTestSupport
import Testing

/// A module that imports the faces finds only Swift modules: every C module (OpenSSL, SQLite, keyutils, PAM,
/// D-Bus, TSS2) is imported implementation-only. A package whose target does not depend on this one can still
/// find `Security.swiftmodule` in a shared build directory (SwiftPM's `canImport(Security)` sees it): importing
/// it there must not fail for want of OpenSSL's headers.
@Suite struct ModuleVisibilityTests {
    @Test func theHashStatesWordsHaveOpenSSLsContextLayouts() {
        #expect(OpenSSLContextWords.layoutsMatch)
    }

    @Test func aClientWithOnlyTheSwiftModulesImportsTheFaces() throws {
        var directory = URL(
            fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0]
        ).deletingLastPathComponent()
        var modules: String?
        for _ in 0..<4 where modules == nil {
            let candidate = directory.appendingPathComponent("Modules/Security.swiftmodule").path
            if FileManager.default.fileExists(atPath: candidate) {
                modules = directory.appendingPathComponent("Modules").path
            }
            directory.deleteLastPathComponent()
        }
        let moduleDirectory = try #require(modules, "the build's Modules directory beside the tests")
        let source = FileManager.default.temporaryDirectory.appendingPathComponent("client-\(UUID().uuidString).swift")
        defer { try? FileManager.default.removeItem(at: source) }
        try """
        import CryptoKit
        import LocalAuthentication
        import Security

        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword]
        _ = SecItemCopyMatching(query as CFDictionary, nil)
        _ = SHA256.hash(data: Data())
        _ = LAContext()

        """.write(to: source, atomically: true, encoding: .utf8)
        // Only -I for the Swift modules: none of the C module maps a dependent target would be given.
        let run = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["swiftc", "-typecheck", "-I", moduleDirectory, source.path])
        #expect(run.status == 0, "\(run.errorText)")
        #expect(!run.errorText.contains("missing required module"))
    }
}
