// swift-tools-version:6.0
import Foundation
import PackageDescription

// keychain-lint: keychain and iOS security checklists as a static analyzer for Swift, Objective-C and
// property lists. A package of its own, apart from the library's: it links the SwiftSyntax libraries of the
// toolchain it is built with, which needs the probing and linker flags below, and no client of `Security` should
// evaluate them. It depends on nothing else of the repository.

let swift6: [SwiftSetting] = [.swiftLanguageMode(.v6)]

// The analyzer parses Swift with the SwiftSyntax libraries that ship inside the toolchain (usr/lib/swift/host),
// so it needs no package dependency. Their directory is found from the Swift runtime this manifest runs on.

/// The toolchain's `usr/lib/swift/host` directory, which holds SwiftSyntax's modules and shared libraries, or nil
/// when this toolchain does not ship them (Xcode's does not): the analyzer is then left out of the package.
func keychainLintSwiftHostDirectory() -> String? {
    let marker = "SwiftSyntax.swiftmodule"
    func hostDirectory(forUsr usr: String) -> String? {
        let host = usr + "/lib/swift/host"
        return FileManager.default.fileExists(atPath: host + "/" + marker) ? host : nil
    }
    if let override = ProcessInfo.processInfo.environment["KEYCHAIN_LINT_SWIFT_HOST"] {
        return override
    }
    // The manifest runs on the toolchain's own runtime: its libraries reveal where that toolchain lives.
    if let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) {
        for line in maps.split(separator: "\n") {
            guard let slash = line.firstIndex(of: "/") else { continue }
            let path = String(line[slash...])
            guard let range = path.range(of: "/lib/swift/linux/") else { continue }
            if let host = hostDirectory(forUsr: String(path[..<range.lowerBound])) { return host }
        }
    }
    for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
        let swift = URL(fileURLWithPath: String(directory)).appendingPathComponent("swift")
        guard FileManager.default.isExecutableFile(atPath: swift.path) else { continue }
        let usr = swift.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent().path
        if let host = hostDirectory(forUsr: usr) { return host }
    }
    return nil
}

let keychainLintHost = keychainLintSwiftHostDirectory()
let keychainLintSwiftSettings: [SwiftSetting] = swift6 + [.unsafeFlags(["-I", keychainLintHost ?? ""])]
// scripts/package-lint.sh sets KEYCHAIN_LINT_PORTABLE=1: the libraries then sit beside the binary ($ORIGIN), and
// no rpath may point into this machine's toolchain.
let keychainLintRpath: [String] =
    ProcessInfo.processInfo.environment["KEYCHAIN_LINT_PORTABLE"] == "1"
    ? [] : ["-Xlinker", "-rpath", "-Xlinker", keychainLintHost ?? ""]
let keychainLintLinkerSettings: [LinkerSetting] = [
    .unsafeFlags(["-L", keychainLintHost ?? ""] + keychainLintRpath),
    .linkedLibrary("SwiftSyntax"),
    .linkedLibrary("SwiftParser"),
]

let lintTargets: [Target] =
    keychainLintHost == nil
    ? []
    : [
        .target(
            name: "KeychainLint",
            swiftSettings: keychainLintSwiftSettings, linkerSettings: keychainLintLinkerSettings),
        .executableTarget(
            name: "KeychainLintTool", dependencies: ["KeychainLint"],
            swiftSettings: keychainLintSwiftSettings, linkerSettings: keychainLintLinkerSettings),
        .testTarget(
            name: "KeychainLintTests", dependencies: ["KeychainLint"],
            swiftSettings: keychainLintSwiftSettings, linkerSettings: keychainLintLinkerSettings),
    ]
let lintProducts: [Product] =
    keychainLintHost == nil
    ? []
    : [
        .executable(name: "keychain-lint", targets: ["KeychainLintTool"])
    ]

let package = Package(
    name: "keychain-lint",
    products: lintProducts,
    targets: lintTargets
)
