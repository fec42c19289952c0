import Foundation
import Testing

@testable import KeychainCore

/// Reading a caller's identity from an Apple `.entitlements` property list.
@Suite struct CallerIdentityTests {
    private func plist(_ body: String) -> Data {
        Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \(body)
            </dict>
            </plist>
            """.utf8)
    }

    @Test func groupsComeInAppleOrderWithPrefixesExpanded() throws {
        let identity = try CallerIdentity.entitlements(
            plist(
                """
                <key>application-identifier</key>
                <string>ABCDE12345.com.example.app</string>
                <key>com.apple.developer.team-identifier</key>
                <string>ABCDE12345</string>
                <key>keychain-access-groups</key>
                <array>
                    <string>$(AppIdentifierPrefix)com.example.shared</string>
                    <string>$(TeamIdentifierPrefix)com.example.other</string>
                </array>
                <key>com.apple.security.application-groups</key>
                <array>
                    <string>group.com.example</string>
                </array>
                """))
        #expect(identity.applicationIdentifier == "ABCDE12345.com.example.app")
        #expect(
            identity.accessGroups == [
                "ABCDE12345.com.example.shared", "ABCDE12345.com.example.other", "ABCDE12345.com.example.app",
                "group.com.example",
            ])
    }

    @Test func teamComesFromTheApplicationIdentifierWhenNotGiven() throws {
        let identity = try CallerIdentity.entitlements(
            plist(
                """
                <key>application-identifier</key>
                <string>TEAM999.com.example.app</string>
                <key>keychain-access-groups</key>
                <array><string>$(AppIdentifierPrefix)com.example.app</string></array>
                """))
        #expect(identity.accessGroups == ["TEAM999.com.example.app"])
    }

    @Test func applicationIdentifierAndAppGroupsWithPrefixVariablesAreExpanded() throws {
        // Xcode projects write the application identifier and macOS application groups with these variables.
        let identity = try CallerIdentity.entitlements(
            plist(
                """
                <key>application-identifier</key>
                <string>$(AppIdentifierPrefix)com.example.app</string>
                <key>com.apple.developer.team-identifier</key>
                <string>ABCDE12345</string>
                <key>com.apple.security.application-groups</key>
                <array><string>$(TeamIdentifierPrefix)com.example.group</string></array>
                """))
        #expect(identity.applicationIdentifier == "ABCDE12345.com.example.app")
        #expect(identity.accessGroups == ["ABCDE12345.com.example.app", "ABCDE12345.com.example.group"])
    }

    @Test func entitlementsWithoutGroupsGiveNoGroups() throws {
        let identity = try CallerIdentity.entitlements(plist("<key>get-task-allow</key><true/>"))
        #expect(identity.accessGroups.isEmpty)
        #expect(identity.applicationIdentifier == nil)
    }

    @Test func entitlementsFileIsReadFromDisk() throws {
        let directory = temporaryHome()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("App.entitlements")
        try plist(
            """
            <key>keychain-access-groups</key>
            <array><string>TEAM1.from.file</string></array>
            """
        ).write(to: file)
        #expect(try CallerIdentity.entitlements(at: file).accessGroups == ["TEAM1.from.file"])
    }

    @Test func unreadableOrMalformedEntitlementsAreParam() throws {
        #expect(throws: KeychainError.param) {
            try CallerIdentity.entitlements(at: URL(fileURLWithPath: "/nonexistent/App.entitlements"))
        }
        #expect(throws: KeychainError.param) { try CallerIdentity.entitlements(Data("not a plist".utf8)) }
        #expect(throws: KeychainError.param) { try CallerIdentity.entitlements(plist("").prefix(40)) }
    }

    @Test func localProgramIdentityPrefersTheBundleIdentifier() {
        let plain = CallerIdentity.localProgram(bundleIdentifier: nil, executableName: "tool")
        #expect(plain.accessGroups == ["LOCAL.tool"])
        let bundled = CallerIdentity.localProgram(bundleIdentifier: "com.example.tool", executableName: "tool")
        #expect(bundled.applicationIdentifier == "LOCAL.com.example.tool")
        #expect(bundled.accessGroups == ["LOCAL.com.example.tool"])
    }

    @Test func duplicateGroupsAreRemovedKeepingTheFirst() {
        let identity = CallerIdentity(applicationIdentifier: "T.app", accessGroups: ["T.a", "T.app", "T.a"])
        #expect(identity.accessGroups == ["T.a", "T.app"])
    }

    /// A damaged binary property list (found by the fuzzer) crashed Foundation's reader; it is refused before
    /// it gets there, with a reason that says how to convert a real one.
    @Test func aBinaryPropertyListIsRefusedWithoutReachingFoundation() throws {
        let finding = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus/entitlements/binary-plist-set")
        let error = #expect(throws: KeychainError.self) {
            try CallerIdentity.entitlements(try Data(contentsOf: finding))
        }
        #expect(error?.status == SecurityStatus.param)
        #expect(error?.reason?.contains("plutil -convert xml1") == true)
        let xml = Data("\u{FEFF}\n  <?xml version=\"1.0\"?><plist><dict/></plist>".utf8)
        #expect(try CallerIdentity.entitlements(xml).accessGroups == [])
    }
}
