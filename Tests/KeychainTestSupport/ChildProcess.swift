import Foundation

/// A program a test runs to its end, its output collected: the `openssl` command and fixture scripts, and the
/// built programs (`security`, the test child) the tests drive.
package enum ChildProcess {
    /// How a child ended and what it printed.
    package struct Outcome: Sendable {
        package let status: Int32
        package let output: Data
        package let errors: Data

        package var outputText: String { String(decoding: output, as: UTF8.self) }
        package var errorText: String { String(decoding: errors, as: UTF8.self) }
    }

    /// A child that exited with a non-zero status; its description carries what it wrote to standard error.
    package struct Failure: Error, CustomStringConvertible {
        package let command: [String]
        package let status: Int32
        package let message: String

        package var description: String { "\(command.joined(separator: " ")) exited \(status): \(message)" }
    }

    /// Runs `executable arguments…` (in `directory` and with `environment` when given) and waits for it to end.
    package static func run(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        let (output, errors) = (Pipe(), Pipe())
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Standard error is drained beside standard output, so a child that fills one pipe cannot stall on it.
        let complaints = Drained(errors.fileHandleForReading)
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complained = complaints.wait()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, output: printed, errors: complained)
    }

    /// Runs `executable arguments…` like ``run(_:_:in:environment:)``; its standard output.
    /// - Throws: ``Failure`` when it exits with a non-zero status.
    @discardableResult
    package static func checked(_ executable: URL, _ arguments: [String], in directory: URL? = nil) throws -> Data {
        let outcome = try run(executable, arguments, in: directory)
        guard outcome.status == 0 else {
            throw Failure(command: [executable.path] + arguments, status: outcome.status, message: outcome.errorText)
        }
        return outcome.output
    }

    /// Runs `script` with `sh -e` in `directory`; its standard output.
    /// - Throws: ``Failure`` when a command of the script fails.
    @discardableResult
    package static func shell(_ script: String, in directory: URL) throws -> Data {
        try checked(URL(fileURLWithPath: "/bin/sh"), ["-ec", script], in: directory)
    }
}

/// A pipe read to its end on a thread of its own.
private final class Drained: @unchecked Sendable {
    private var bytes = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            bytes = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    /// Everything the pipe carried, once its writer has closed it.
    func wait() -> Data {
        done.wait()
        return bytes
    }
}
