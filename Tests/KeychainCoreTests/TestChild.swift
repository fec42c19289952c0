import Foundation
import KeychainTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The `KeychainTestChild` helper executable, built beside the test bundle.
enum TestChild {
    static let executableName = "KeychainTestChild"

    /// Finds the helper: `KEYCHAIN_TEST_CHILD` if set, else the directory of the running test binary and its
    /// parents (SwiftPM puts executables and the test bundle in the same build directory).
    static func executable() throws -> URL {
        let environment = ProcessInfo.processInfo.environment
        if let explicit = environment["KEYCHAIN_TEST_CHILD"], FileManager.default.isExecutableFile(atPath: explicit) {
            return URL(fileURLWithPath: explicit)
        }
        var starts: [URL] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            starts.append(URL(fileURLWithPath: exe))
        }
        starts.append(URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath())
        if let bundle = Bundle.main.executableURL { starts.append(bundle.resolvingSymlinksInPath()) }
        for start in starts {
            var directory = start.deletingLastPathComponent()
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent(executableName)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                directory.deleteLastPathComponent()
            }
        }
        throw ChildError(
            "\(executableName) not found beside \(starts.map(\.path)); build with --build-tests "
                + "or set KEYCHAIN_TEST_CHILD")
    }

    /// Runs `read HOME GROUP ACCOUNT` to its end with the fast key derivation: it prints the read's status.
    static func read(_ home: URL, _ account: String) throws -> ChildProcess.Outcome {
        let environment = ProcessInfo.processInfo.environment.merging(["KEYCHAIN_TEST_FAST_KDF": "1"]) { $1 }
        return try ChildProcess.run(
            try executable(), ["read", home.path, protectionTestGroup, account], environment: environment)
    }

    /// Starts the helper with `arguments`, its stdin and stdout connected as given.
    static func launch(_ arguments: [String], stdin: Any? = nil, stdout: Any?, stderr: Any? = nil) throws -> Process {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        if let stdin { process.standardInput = stdin }
        process.standardOutput = stdout
        if let stderr { process.standardError = stderr }
        try process.run()
        return process
    }
}

struct ChildError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Reads a child's output line by line from a pipe.
final class LineReader {
    private let descriptor: Int32
    private var buffer: [UInt8] = []

    init(_ pipe: Pipe) { descriptor = pipe.fileHandleForReading.fileDescriptor }

    /// The next line without its newline, or nil at end of file.
    func nextLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            buffer += chunk[0..<count]
        }
    }
}
