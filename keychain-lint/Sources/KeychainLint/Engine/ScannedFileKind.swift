/// The kinds of file the analyzer reads, recognised by name.
package enum ScannedFileKind: Sendable {
    case swift
    case objectiveC
    case infoPlist
    case entitlements
    case privacyManifest
    case projectFile

    package init?(path: String) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if name.hasSuffix(".swift") {
            self = .swift
        } else if name.hasSuffix(".m") || name.hasSuffix(".mm") || name.hasSuffix(".h") {
            self = .objectiveC
        } else if name == "Info.plist" || name.hasSuffix("-Info.plist") {
            self = .infoPlist
        } else if name.hasSuffix(".entitlements") {
            self = .entitlements
        } else if name == "PrivacyInfo.xcprivacy" {
            self = .privacyManifest
        } else if name == "project.pbxproj" {
            self = .projectFile
        } else {
            return nil
        }
    }
}
