import Testing

@testable import KeychainLint

/// Read statuses are followed through reassignment, compound conditions and the module's own read wrappers.
@Suite struct ReadErrorFlowTests {
    @Test func aLockedDeviceBranchWithAnotherConditionIsFollowedPastReassignment() {
        let source = """
            final class TokenStore {
                func remove(_ key: String) throws {
                    SecItemDelete([kSecClass: kSecClassGenericPassword, kSecAttrAccount: key] as CFDictionary)
                }
                func migrate(_ key: String, value: Data, legacy: Bool) throws {
                    var result: AnyObject?
                    var status = SecItemCopyMatching([kSecAttrAccount: key, kSecReturnData: true] as CFDictionary,
                                                     &result)
                    if status == errSecInteractionNotAllowed && legacy {
                        try remove(key)
                        try set(value, key: key)
                    }
                    status = SecItemAdd([kSecAttrAccount: key, kSecValueData: value] as CFDictionary, nil)
                }
            }
            """
        #expect(locations(of: "KL202", in: source) == ["10:17"])
    }

    @Test func aReadThroughTheModulesWrapperIsFollowed() {
        let wrapper = SourceFile(
            path: "KeychainHelper.swift",
            text: """
                struct ReadResult { var data: Data?; var error: OSStatus? }
                enum KeychainHelper {
                    static func read(account: String) -> ReadResult {
                        var item: CFTypeRef?
                        let status = SecItemCopyMatching([kSecAttrAccount: account] as CFDictionary, &item)
                        return ReadResult(data: item as? Data, error: status == errSecSuccess ? nil : status)
                    }
                    static func delete(account: String) {
                        SecItemDelete([kSecAttrAccount: account] as CFDictionary)
                    }
                }
                """)
        let source = """
            func deviceIdentifier() -> Data {
                let result = KeychainHelper.read(account: "device-id")
                if result.error != nil {
                    KeychainHelper.delete(account: "device-id")
                    return Data()
                }
                return result.data ?? Data()
            }
            func settled() {
                let result = KeychainHelper.read(account: "device-id")
                if result.error == nil { KeychainHelper.delete(account: "device-id") }
            }
            """
        #expect(locations(of: "KL202", in: source, with: [wrapper]) == ["4:9"])
    }
}

/// The platform comes from the project: a macOS target's build settings decide the macOS-only rules.
@Suite struct ProjectPlatformTests {
    static let macProject = SourceFile(
        path: "Mac.xcodeproj/project.pbxproj",
        text: """
            buildSettings = {
                SDKROOT = macosx;
                MACOSX_DEPLOYMENT_TARGET = 13.0;
            };
            """)
    static let save = """
        import Foundation
        func save(_ data: Data) {
            SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrAccount: "sync", kSecValueData: data,
                        kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock] as CFDictionary, nil)
            _ = UserDefaults.standard.bool(forKey: "synced")
        }
        """

    @Test func aMacOSTargetDecidesTheFileBasedKeychainRule() {
        #expect(locations(of: "KL501", in: Self.save, with: [Self.macProject]) == ["3:5"])
        #expect(locations(of: "KL501", in: Self.save).isEmpty)
    }

    @Test func aMacOSTargetNeedsNoPrivacyManifest() {
        #expect(locations(of: "KL504", in: Self.save, with: [Self.macProject]).isEmpty)
        let iOSProject = SourceFile(
            path: "Phone.xcodeproj/project.pbxproj", text: "buildSettings = {\n SDKROOT = iphoneos;\n};\n")
        #expect(locations(of: "KL504", in: Self.save, with: [iOSProject]) == ["5:9"])
    }
}
