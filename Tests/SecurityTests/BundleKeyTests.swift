import Foundation
import Security
import Testing

/// The `CFBundle` keys clients read `Bundle.main.infoDictionary` with, exported with Apple's raw strings; a popular
/// wrapper does not compile without `String(kCFBundleIdentifierKey)` (issue 11).
@Suite struct BundleKeyTests {
    @Test func keysHaveApplesRawStrings() {
        #expect(String(kCFBundleIdentifierKey) == "CFBundleIdentifier")
        #expect(String(kCFBundleNameKey) == "CFBundleName")
        #expect(String(kCFBundleVersionKey) == "CFBundleVersion")
        #expect(String(kCFBundleExecutableKey) == "CFBundleExecutable")
        #expect(String(kCFBundleInfoDictionaryVersionKey) == "CFBundleInfoDictionaryVersion")
        #expect(String(kCFBundleDevelopmentRegionKey) == "CFBundleDevelopmentRegion")
        #expect(String(kCFBundleLocalizationsKey) == "CFBundleLocalizations")
    }

    @Test func keysIndexABundlesInfoDictionary() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bundle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let plist: [String: Any] = ["CFBundleIdentifier": "com.example.app", "CFBundleName": "Example"]
        let bytes = try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
        try bytes.write(to: directory.appendingPathComponent("Info.plist"))
        let info = try #require(Bundle(url: directory)?.infoDictionary)
        #expect(info[String(kCFBundleIdentifierKey)] as? String == "com.example.app")
        #expect(info[kCFBundleNameKey as String] as? String == "Example")
        #expect(Bundle.main.infoDictionary?[String(kCFBundleIdentifierKey)] as? String == Bundle.main.bundleIdentifier)
    }
}
