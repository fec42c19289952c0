import Foundation
import Testing

@testable import KeychainLint

/// Paths from different repositories are different projects: one repository's plist or classes never change the
/// findings of another.
@Suite struct ProjectRootTests {
    static let biometricRead = """
        import LocalAuthentication
        func unlock(context: LAContext) {
            let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                                                         .biometryCurrentSet, nil)
            context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock") { _, _ in }
        }
        """
    static let faceIDPlist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>NSFaceIDUsageDescription</key><string>Unlock your vault</string>
        </dict></plist>
        """
    static let emptyPlist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>CFBundleName</key><string>B</string></dict></plist>
        """

    @Test func aPlistInOneRepositoryDoesNotSilenceAnother() throws {
        let directory = try TemporaryDirectory()
        try directory.write("RepoA/RepoA.xcodeproj/project.pbxproj", "// !$*UTF8*$!\n{}\n")
        try directory.write("RepoA/App/Info.plist", Self.faceIDPlist)
        try directory.write("RepoB/Podfile", "platform :ios, '15.0'\n")
        try directory.write("RepoB/App/Info.plist", Self.emptyPlist)
        try directory.write("RepoB/App/Unlock.swift", Self.biometricRead)
        let report = try Linter().lint(paths: [directory.path + "/RepoA", directory.path + "/RepoB"])
        let faceID = report.findings.filter { $0.rule.id == "KL305" }.map(\.path)
        #expect(faceID == [directory.path + "/RepoB/App/Unlock.swift"])
        #expect(report.projects == 2)
        // A directory holding both repositories splits them the same way.
        let parent = try Linter().lint(paths: [directory.path])
        #expect(parent.findings.filter { $0.rule.id == "KL305" }.count == 1)
        #expect(parent.projects == 2)
    }

    @Test func sameNamedWrappersInOtherRepositoriesDoNotDelete() throws {
        let directory = try TemporaryDirectory()
        try directory.write(
            "RepoA/Package.swift", "// swift-tools-version:5.9\nimport PackageDescription\n")
        try directory.write(
            "RepoA/Sources/Vault.swift",
            """
            final class Vault {
                func reset(_ key: String) { SecItemDelete([kSecAttrAccount: key] as CFDictionary) }
            }
            """)
        try directory.write("RepoB/RepoB.xcodeproj/project.pbxproj", "// !$*UTF8*$!\n{}\n")
        try directory.write(
            "RepoB/App/Store.swift",
            """
            final class Store {
                func reset(_ key: String) { cache.removeValue(forKey: key) }
                func save(_ key: String, data: Data) {
                    reset(key)
                    SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrAccount: key, kSecValueData: data,
                                kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly] as CFDictionary,
                           nil)
                }
            }
            """)
        let report = try Linter().lint(paths: [directory.path])
        #expect(report.findings.filter { $0.rule.id == "KL201" }.isEmpty)
    }

    @Test func foldersOfOneRepositoryStayOneProject() throws {
        let directory = try TemporaryDirectory()
        try directory.write("Repo/Repo.xcodeproj/project.pbxproj", "// !$*UTF8*$!\n{}\n")
        try directory.write("Repo/App/Info.plist", Self.faceIDPlist)
        try directory.write("Repo/Shared/Unlock.swift", Self.biometricRead)
        let report = try Linter().lint(paths: [directory.path + "/Repo/App", directory.path + "/Repo/Shared"])
        #expect(report.projects == 1)
        #expect(report.findings.filter { $0.rule.id == "KL305" }.isEmpty)
    }
}
