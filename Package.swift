// swift-tools-version:6.0
import PackageDescription

// Layers, bottom up: C system libraries → wrappers that alone import them → the engine → Apple's faces and
// the programs. The faces `Security` and `LocalAuthentication` exist on Linux only: on Apple platforms the
// system frameworks of the same names are the real thing. The analyzer, keychain-lint, is a package of its own
// (keychain-lint/), so this manifest stays declarative for every client that depends on `Security`.

// Debian ships TSS2 as shared libraries only, so the fully static `security` (scripts/build-release.sh) is built
// with KEYCHAIN_WITHOUT_TPM=1: TPMEnclave then compiles its WithoutTPM files, in which no TPM connects.
let withoutTPM = Context.environment["KEYCHAIN_WITHOUT_TPM"] == "1"

// C modules are imported `@_implementationOnly`, so that a module that imports Security, LocalAuthentication or
// CryptoKit needs none of their headers (docs/architecture.md); CheckImplementationOnly makes the compiler refuse
// any C type in a stored property, whose layout such a client could not know.
let swift6: [SwiftSetting] = [.swiftLanguageMode(.v6), .enableExperimentalFeature("CheckImplementationOnly")]

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
    .systemLibrary(
        name: "CKeyutils", pkgConfig: "libkeyutils",
        providers: [.apt(["libkeyutils-dev"])]),
    // System calls in one place: errno captured at once into SystemCallError, EINTR retried here only. The
    // engine's files and processes, TerminalIO and KernelKeyring make their calls through it.
    // Its one C module: header-only (variadic calls and _GNU_SOURCE-only ones: pidfds, capabilities, accept4).
    .systemLibrary(name: "CSystemCalls"),
    .target(name: "SystemCalls", dependencies: ["CSystemCalls"], swiftSettings: swift6),
    .testTarget(name: "SystemCallsTests", dependencies: ["SystemCalls"], swiftSettings: swift6),
    .target(name: "KernelKeyring", dependencies: ["CKeyutils", "SystemCalls"], swiftSettings: swift6),
    .target(name: "TerminalIO", dependencies: ["SystemCalls", "KeychainCrypto"], swiftSettings: swift6),
    .testTarget(name: "TerminalIOTests", dependencies: ["TerminalIO"], swiftSettings: swift6),
    // The texts people read, in English and Japanese by the locale: statuses, LAError, the security command.
    .target(name: "KeychainMessages", swiftSettings: swift6),
    // libcrypto set up before main without its atexit cleanup, so threads still in it at exit do not crash.
    .target(name: "OpenSSLProcessSetup", dependencies: ["COpenSSL"]),
    .target(name: "KeychainCrypto", dependencies: ["COpenSSL", "OpenSSLProcessSetup"], swiftSettings: swift6),
    .target(name: "KeychainStore", dependencies: ["CSQLite"], swiftSettings: swift6),
    // The engine's reasons are worded per language by KeychainMessages' catalog.
    .target(
        name: "KeychainCore",
        dependencies: ["KeychainCrypto", "KeychainStore", "KernelKeyring", "KeychainMessages", "SystemCalls"],
        swiftSettings: swift6),
    // keychaind's wire (docs/keychaind.md): frames, the daemon's own fields and a client socket, no C library,
    // so that the statically linked faces reach the daemon with it; the requests' typed codec and the daemon
    // client service live in KeychainRequests.
    .target(name: "KeychainWire", dependencies: ["SystemCalls", "KeychainCrypto"], swiftSettings: swift6),
    // The request boundary: Caller, KeychainRequest/KeychainResponse values, the KeychainService protocol and
    // its in-process implementation. The faces and the `security` command talk to a keychain only through it.
    .target(
        name: "KeychainRequests", dependencies: ["KeychainCore", "KeychainCrypto", "KeychainWire", "TerminalIO"],
        swiftSettings: swift6),
    .testTarget(
        name: "KeychainRequestsTests",
        dependencies: ["KeychainRequests", "KeychainCore", "KeychainWire", "KeychainTestSupport"],
        swiftSettings: swift6),
    // Known-answer vectors (RFC 4231, RFC 5869, GCM, RFC 3394, RFC 7914) are files in Vectors/, read by a runner.
    .testTarget(
        name: "KeychainCryptoTests", dependencies: ["KeychainCrypto", "OpenSSLProcessSetup"],
        resources: [.copy("Vectors")],
        swiftSettings: swift6),
    .testTarget(name: "KeychainStoreTests", dependencies: ["KeychainStore"], swiftSettings: swift6),
    .testTarget(
        name: "KeychainCoreTests", dependencies: ["KeychainCore", "KeychainMessages", "KeychainTestSupport"],
        swiftSettings: swift6),
    // A child process for KeychainCoreTests' crash and race tests; deliberately not a product.
    .executableTarget(name: "KeychainTestChild", dependencies: ["KeychainCore"], swiftSettings: swift6),
    // Fixtures more than one test target needs: running a child program to its end, the OSStatus a throwing call
    // ends with. A library of the tests only; not a product.
    .target(
        name: "KeychainTestSupport", dependencies: ["KeychainCore"], path: "Tests/KeychainTestSupport",
        swiftSettings: swift6),
]

#if os(Linux)
    products += [
        .library(name: "Security", targets: ["Security"]),
        .library(name: "LocalAuthentication", targets: ["LocalAuthentication"]),
        .executable(name: "keychain-authenticate", targets: ["KeychainAuthenticate"]),
        .library(name: "CryptoKit", targets: ["CryptoKit"]),
        .executable(name: "cryptokit-benchmarks", targets: ["CryptoKitBenchmarks"]),
    ]
    targets += [
        // Certificates, trust and PKCS#12 over OpenSSL: only X509Certificates imports the C module for them.
        .target(name: "X509Certificates", dependencies: ["COpenSSL", "KeychainCrypto"], swiftSettings: swift6),
        // Security's keys (SecKey) run on CryptoKit's OpenSSL backend, which holds the EC and RSA key code.
        .target(
            name: "Security",
            dependencies: [
                "KeychainCore", "KeychainRequests", "KeychainMessages", "CryptoKitOpenSSL", "KeychainCrypto",
                "X509Certificates", "EnclaveKeys",
            ],
            swiftSettings: swift6),
        .target(
            name: "LocalAuthentication",
            dependencies: ["KeychainCore", "KeychainCrypto", "KeychainRequests", "KeychainMessages", "Security"],
            swiftSettings: swift6),
        // CryptoKitOpenSSL: the SHA-1 and SHA-256 fingerprints `find-certificate -Z` and `find-identity` print.
        .target(
            name: "SecurityCLI",
            dependencies: [
                "KeychainCore", "KeychainCrypto", "KeychainRequests", "KeychainMessages", "Security", "TerminalIO",
                "CryptoKitOpenSSL", "KeychainWire",
            ],
            swiftSettings: swift6),
        // PAM lives in its own small process: the static `security` binary cannot load PAM's modules.
        .systemLibrary(name: "CPAM", pkgConfig: "pam", providers: [.apt(["libpam0g-dev"])]),
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        .target(name: "SystemBus", dependencies: ["CDBus"], swiftSettings: swift6),
        .target(name: "PAMSession", dependencies: ["CPAM"], swiftSettings: swift6),
        .executableTarget(
            name: "KeychainAuthenticate", dependencies: ["PAMSession", "SystemBus", "SystemCalls", "TerminalIO"],
            swiftSettings: swift6
        ),
        // A stand-in fprintd on a private bus, for tests of the fingerprint back end.
        .executableTarget(name: "KeychainTestFprintd", dependencies: ["SystemBus"], swiftSettings: swift6),
        .executableTarget(name: "SecurityTool", dependencies: ["SecurityCLI", "SystemCalls"], swiftSettings: swift6),
        // libFuzzer targets for the decoders of untrusted bytes (scripts/fuzz.sh); a normal build makes a replayer.
        .executableTarget(
            name: "KeychainFuzz",
            dependencies: [
                "KeychainCore", "Security", "SecurityCLI", "KeychainDaemon", "KeychainWire", "KeychainRequests",
                // The certificate, pkcs12 and key-data targets: the X.509 parser, SecureBytes and CryptoKit's keys.
                "X509Certificates", "KeychainCrypto", "CryptoKit",
            ],
            swiftSettings: swift6),
        .executableTarget(
            name: "KeychainBenchmarks",
            dependencies: ["Security", "KeychainCore", "KeychainCrypto", "KeychainStore", "CSQLite", "COpenSSL"],
            swiftSettings: swift6),
        .testTarget(
            name: "SecurityTests",
            // CryptoKit's hashes and AES-GCM rebuild ECIES blobs step by step in the SecKey tests.
            dependencies: [
                "Security", "LocalAuthentication", "KeychainCore", "KeychainRequests", "KeychainMessages", "CryptoKit",
                "X509Certificates", "EnclaveKeys", "KeychainTestSupport",
            ],
            swiftSettings: swift6),
        // SecureEnclave keys kept in a TPM 2.0, through the TSS2 ESAPI: only TPMEnclave imports CTSS2 (and one test).
        .systemLibrary(name: "CTSS2", pkgConfig: "tss2-esys", providers: [.apt(["libtss2-dev"])]),
        .target(
            name: "TPMEnclave", dependencies: withoutTPM ? [] : ["CTSS2"],
            exclude: withoutTPM ? ["TPMConnection.swift", "TPMKeyBlob.swift"] : ["WithoutTPM"], swiftSettings: swift6),
        // CryptoKit's face over OpenSSL: only CryptoKitOpenSSL imports the C module.
        .target(name: "CryptoKitOpenSSL", dependencies: ["COpenSSL", "KeychainCrypto"], swiftSettings: swift6),
        // Secure Enclave keys, below both faces: the backends (TPM 2.0, the administrator's software enclave), their
        // blob formats and the keychain-sealed auth values. CryptoKit's SecureEnclave and Security's SecKey with
        // kSecAttrTokenIDSecureEnclave hold the same keys through it.
        .target(
            name: "EnclaveKeys",
            dependencies: ["KeychainCore", "KeychainCrypto", "KeychainRequests", "TPMEnclave", "CryptoKitOpenSSL"],
            swiftSettings: swift6),
        .target(
            name: "CryptoKit",
            dependencies: [
                "CryptoKitOpenSSL", "KeychainCrypto", "KeychainCore", "EnclaveKeys", "Security", "LocalAuthentication",
            ],
            swiftSettings: swift6),
        // The same operations written in C against libcrypto, timed beside CryptoKit's.
        .target(name: "CryptoKitBenchmarkBaseline", dependencies: ["COpenSSL"]),
        .executableTarget(
            name: "CryptoKitBenchmarks", dependencies: ["CryptoKit", "CryptoKitBenchmarkBaseline", "Security"],
            swiftSettings: swift6),
        .testTarget(
            name: "CryptoKitTests",
            // CTSS2 too: a test trips the TPM's dictionary-attack lockout as another TPM user would.
            dependencies: [
                "CryptoKit", "CryptoKitOpenSSL", "KeychainCore", "Security", "LocalAuthentication", "EnclaveKeys",
                "TPMEnclave", "KeychainTestSupport",
            ] + (withoutTPM ? [] : ["CTSS2"]),
            swiftSettings: swift6),
        .testTarget(
            name: "SecurityCLITests",
            dependencies: [
                "SecurityCLI", "KeychainCore", "KeychainMessages", "KeychainStore", "TerminalIO", "KeychainTestSupport",
            ],
            swiftSettings: swift6),
    ]
    // keychaind (docs/keychaind.md): the daemon's library and executable, and DaemonSystem, the daemon's sockets,
    // peers and privileges over SystemCalls, and libsystemd (socket activation, readiness).
    products += [.executable(name: "keychaind", targets: ["Keychaind"])]
    targets += [
        .systemLibrary(name: "CDaemonSystem", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .target(name: "DaemonSystem", dependencies: ["CDaemonSystem", "SystemCalls"], swiftSettings: swift6),
        .target(
            name: "KeychainDaemon",
            dependencies: [
                "DaemonSystem", "KeychainCore", "CryptoKitOpenSSL", "KeychainWire", "KeychainRequests", "KeychainStore",
                "KeychainCrypto", "SystemCalls", "EnclaveKeys",
            ],
            swiftSettings: swift6),
        .executableTarget(name: "Keychaind", dependencies: ["KeychainDaemon", "DaemonSystem"], swiftSettings: swift6),
        // A SecItem client for keychaind's tests (its copies are the tests' different apps); not a product.
        .executableTarget(
            name: "KeychainDaemonTestClient",
            dependencies: ["Security", "KeychainRequests", "KeychainCore", "KeychainWire", "SystemCalls"],
            swiftSettings: swift6),
        .testTarget(
            name: "KeychainDaemonTests",
            dependencies: [
                "KeychainDaemon", "DaemonSystem", "KeychainCore", "CryptoKitOpenSSL", "KeychainWire",
                "KeychainRequests", "CryptoKit",
                "Security", "LocalAuthentication", "KeychainStore", "KeychainTestSupport",
            ],
            swiftSettings: swift6),
        // keychaind's benchmark (scripts/daemon-benchmark.sh): a driver that starts the daemon and its own copies as
        // client processes; SecItem through the daemon against in process and the floor of keychain-benchmarks.
        .executableTarget(
            name: "KeychaindBenchmark", dependencies: ["Security", "SystemCalls", "KeychainCore"],
            swiftSettings: swift6),
    ]
    products += [.executable(name: "keychaind-benchmark", targets: ["KeychaindBenchmark"])]
    // The tests' software TPM lets go of its connection (EnclaveKeys, Linux only) before it stops.
    for target in targets where target.name == "KeychainTestSupport" {
        target.dependencies.append("EnclaveKeys")
    }
#endif

let package = Package(
    name: "KeychainServices",
    products: products,
    targets: targets
)
