import Foundation

/// The target libFuzzer drives, named by `KEYCHAIN_FUZZ_TARGET` (scripts/fuzz.sh sets it).
let selectedTarget: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["KEYCHAIN_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget.named(name) else {
        let names = FuzzTarget.all.map(\.name).joined(separator: ", ")
        FileHandle.standardError.write(Data("KEYCHAIN_FUZZ_TARGET must name one of: \(names)\n".utf8))
        exit(2)
    }
    return target
}()

/// libFuzzer's entry point. In a normal build nothing calls it; `-sanitize=fuzzer` links libFuzzer's `main`,
/// which does.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    selectedTarget.run(bytes)
    return 0
}

#if FUZZING
    /// libFuzzer's driver, for a `main` of our own.
    @_silgen_name("LLVMFuzzerRunDriver")
    private func runLibFuzzerDriver(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    ) -> Int32

    /// In a debug build SwiftPM links an executable's entry point as `<module>_main` and makes `main` an alias of
    /// it; this hands control to libFuzzer's driver then (in a release build libFuzzer's own `main` is used).
    @_cdecl("KeychainFuzz_main")
    func keychainFuzzMain(
        _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    ) -> Int32 {
        var count = argc
        var arguments = argv
        return runLibFuzzerDriver(&count, &arguments) { data, size in fuzzOneInput(data, size) }
    }
#endif
