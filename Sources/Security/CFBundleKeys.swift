import Foundation

// Core Foundation's Info.plist keys with Apple's raw strings, for the clients that read
// `Bundle.main.infoDictionary` with them (`String(kCFBundleIdentifierKey)`). Foundation on Linux does not export
// them; like the `kSec…` constants they are immutable NSStrings.

/// Apple's constant with the raw value "CFBundleIdentifier".
nonisolated(unsafe) public let kCFBundleIdentifierKey: CFString = SecConstant("CFBundleIdentifier")
/// Apple's constant with the raw value "CFBundleName".
nonisolated(unsafe) public let kCFBundleNameKey: CFString = SecConstant("CFBundleName")
/// Apple's constant with the raw value "CFBundleVersion".
nonisolated(unsafe) public let kCFBundleVersionKey: CFString = SecConstant("CFBundleVersion")
/// Apple's constant with the raw value "CFBundleExecutable".
nonisolated(unsafe) public let kCFBundleExecutableKey: CFString = SecConstant("CFBundleExecutable")
/// Apple's constant with the raw value "CFBundleInfoDictionaryVersion".
nonisolated(unsafe) public let kCFBundleInfoDictionaryVersionKey: CFString =
    SecConstant("CFBundleInfoDictionaryVersion")
/// Apple's constant with the raw value "CFBundleDevelopmentRegion".
nonisolated(unsafe) public let kCFBundleDevelopmentRegionKey: CFString = SecConstant("CFBundleDevelopmentRegion")
/// Apple's constant with the raw value "CFBundleLocalizations".
nonisolated(unsafe) public let kCFBundleLocalizationsKey: CFString = SecConstant("CFBundleLocalizations")
