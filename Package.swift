// swift-tools-version:6.0
import PackageDescription

// Layers, bottom up: C system libraries → wrappers that alone import them → the engine → Apple's faces and
// the programs. The faces `Security` and `LocalAuthentication` exist on Linux only: on Apple platforms the
// system frameworks of the same names are the real thing.

let swift6: [SwiftSetting] = [.swiftLanguageMode(.v6)]

var products: [Product] = [
    .library(name: "KeychainCore", targets: ["KeychainCore"]),
    .executable(name: "security", targets: ["SecurityTool"]),
    .executable(name: "keychain-benchmarks", targets: ["KeychainBenchmarks"]),
]

var targets: [Target] = [
    .systemLibrary(
        name: "CSQLite", pkgConfig: "sqlite3",
        providers: [.apt(["libsqlite3-dev"])]),
    .systemLibrary(
        name: "COpenSSL", pkgConfig: "libcrypto",
        providers: [.apt(["libssl-dev"])]),
    .target(name: "KeychainCrypto", dependencies: ["COpenSSL"], swiftSettings: swift6),
    .target(name: "KeychainStore", dependencies: ["CSQLite"], swiftSettings: swift6),
    .target(name: "KeychainCore", dependencies: ["KeychainCrypto", "KeychainStore"], swiftSettings: swift6),
    .testTarget(name: "KeychainCryptoTests", dependencies: ["KeychainCrypto"], swiftSettings: swift6),
    .testTarget(name: "KeychainStoreTests", dependencies: ["KeychainStore"], swiftSettings: swift6),
    .testTarget(name: "KeychainCoreTests", dependencies: ["KeychainCore"], swiftSettings: swift6),
]

#if os(Linux)
products += [
    .library(name: "Security", targets: ["Security"]),
    .library(name: "LocalAuthentication", targets: ["LocalAuthentication"]),
]
targets += [
    .target(name: "Security", dependencies: ["KeychainCore"], swiftSettings: swift6),
    .target(name: "LocalAuthentication", dependencies: ["KeychainCore"], swiftSettings: swift6),
    .target(name: "SecurityCLI", dependencies: ["KeychainCore"], swiftSettings: swift6),
    .executableTarget(name: "SecurityTool", dependencies: ["SecurityCLI"], swiftSettings: swift6),
    .executableTarget(
        name: "KeychainBenchmarks",
        dependencies: ["Security", "KeychainCore", "KeychainCrypto", "KeychainStore", "CSQLite", "COpenSSL"],
        swiftSettings: swift6),
    .testTarget(
        name: "SecurityTests", dependencies: ["Security", "LocalAuthentication", "KeychainCore"],
        swiftSettings: swift6),
    .testTarget(name: "SecurityCLITests", dependencies: ["SecurityCLI", "KeychainCore"], swiftSettings: swift6),
]
#endif

// MARK: - keychain-lint (the analyzer). Its build settings stay on its own targets.
// (section owned by the analyzer's targets)
let lintTargets: [Target] = []
let lintProducts: [Product] = []
// MARK: - end keychain-lint

let package = Package(
    name: "KeychainServices",
    products: products + lintProducts,
    targets: targets + lintTargets
)
