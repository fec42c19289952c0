import Testing

@testable import KeychainLint

@Suite struct PlatformRuleTests {
    @Test func macOSAddsWithoutDataProtectionKeychainAreReported() {
        let source = """
            import AppKit
            func save(_ data: Data) {
                SecItemAdd([kSecClass: kSecClassGenericPassword, kSecValueData: data] as CFDictionary, nil)
                SecItemAdd([
                    kSecClass: kSecClassGenericPassword,
                    kSecUseDataProtectionKeychain: true,
                    kSecValueData: data,
                ] as CFDictionary, nil)
                SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrSynchronizable: true] as CFDictionary, nil)
            }
            """
        #expect(locations(of: "KL501", in: source) == ["3:5"])
        let iOS = source.replacingOccurrences(of: "import AppKit", with: "import UIKit")
        #expect(locations(of: "KL501", in: iOS).isEmpty)
        let conditional = """
            #if os(macOS)
            func save(_ data: Data) {
                SecItemAdd([kSecClass: kSecClassGenericPassword, kSecValueData: data] as CFDictionary, nil)
            }
            #endif
            """
        #expect(locations(of: "KL501", in: conditional) == ["3:5"])
        let inBody = """
            func save(_ data: Data) {
                #if os(macOS)
                SecItemAdd([kSecClass: kSecClassGenericPassword, kSecValueData: data] as CFDictionary, nil)
                #else
                SecItemAdd([kSecClass: kSecClassGenericPassword, kSecValueData: data] as CFDictionary, nil)
                #endif
            }
            """
        #expect(locations(of: "KL501", in: inBody) == ["3:5"])
    }

    @Test func commonCryptoImportsAloneAreSilent() {
        // KL503 is reported where a cipher is called (CommonCryptoCallTests); an import alone decides nothing.
        #expect(locations(of: "KL503", in: "import Foundation\nimport CommonCrypto\n").isEmpty)
        #expect(locations(of: "KL503", in: "#import <CommonCrypto/CommonCryptor.h>\n", path: "Cipher.m").isEmpty)
        #expect(locations(of: "KL503", in: "import CryptoKit\n// import CommonCrypto\n").isEmpty)
    }

    @Test func arbitraryLoadsAreReportedAtTheKeyLine() {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
                <!-- <key>NSAllowsArbitraryLoads</key><true/> -->
                <key>NSAppTransportSecurity</key>
                <dict>
                    <key>NSAllowsArbitraryLoadsInWebContent</key>
                    <true/>
                    <key>NSAllowsArbitraryLoads</key>
                    <true/>
                </dict>
                <key>API_KEY</key>
                <string>$(API_KEY)</string>
                <key>StripeSecretKey</key>
                <string>sk_live_51HxQ2bGvXyZ0123456789ab</string>
            </dict>
            </plist>
            """
        #expect(locations(of: "KL502", in: plist, path: "App/Info.plist") == ["9:9"])
        #expect(locations(of: "KL402", in: plist, path: "App/Info.plist") == ["15:5"])
        let off = plist.replacingOccurrences(of: "<key>NSAllowsArbitraryLoads</key>\n            <true/>", with: "")
        let falseValue = plist.replacingOccurrences(
            of: "<key>NSAllowsArbitraryLoads</key>\n        <true/>",
            with: "<key>NSAllowsArbitraryLoads</key>\n        <false/>")
        #expect(locations(of: "KL502", in: off, path: "App/Info.plist") == ["9:9"])
        #expect(locations(of: "KL502", in: falseValue, path: "App/Info.plist").isEmpty)
    }

    @Test func missingPrivacyManifestIsInfo() {
        let source = "func load() { _ = UserDefaults.standard.string(forKey: \"theme\") }\n"
        let info = SourceFile(path: "App/Info.plist", text: AccessControlRuleTests.plist(keys: ""))
        let manifest = SourceFile(
            path: "App/PrivacyInfo.xcprivacy",
            text: AccessControlRuleTests.plist(
                keys: """
                    <key>NSPrivacyAccessedAPITypes</key>
                    <array><dict>
                        <key>NSPrivacyAccessedAPIType</key><string>NSPrivacyAccessedAPICategoryUserDefaults</string>
                    </dict></array>
                    """))
        #expect(locations(of: "KL504", in: source, with: [info]) == ["1:19"])
        #expect(locations(of: "KL504", in: source, with: [info, manifest]).isEmpty)
        #expect(locations(of: "KL504", in: source).isEmpty)
    }
}
