import Foundation

/// One fuzz target: a name (also its corpus folder, Fuzz/Corpus/<name>) and what it does with one input.
/// An input may be rejected with any error; only a trap, a sanitizer report or a broken invariant
/// (``FuzzFailure``) is a finding.
struct FuzzTarget: Sendable {
    let name: String
    /// What the target feeds and what it checks, for `--list`.
    let summary: String
    let run: @Sendable ([UInt8]) -> Void

    /// Every target, in the order `scripts/fuzz.sh all` runs them.
    static let all: [FuzzTarget] = [
        .secItemDictionary, .attributeCodec, .constraintEnvelope, .keybag, .persistentReference, .backupReader,
        .entitlements, .commandParser, .frameDecoder, .requestDecoder, .certificate, .pkcs12, .keyData,
    ]

    static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}

/// Stops the process on a broken invariant, naming it, so that libFuzzer keeps the input as a crash.
func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("fuzz invariant broken: \(message())") }
}

/// Whether `KEYCHAIN_FUZZ_DEBUG=1` asks the targets to say how far each input got (for work on the corpus).
let fuzzDebug = ProcessInfo.processInfo.environment["KEYCHAIN_FUZZ_DEBUG"] == "1"

/// Writes how far an input got to standard error when `KEYCHAIN_FUZZ_DEBUG=1`.
func fuzzNote(_ message: @autoclosure () -> String) {
    if fuzzDebug { FileHandle.standardError.write(Data((message() + "\n").utf8)) }
}
