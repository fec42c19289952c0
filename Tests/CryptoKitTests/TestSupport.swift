import CryptoKit
import Foundation
import KeychainTestSupport
import Testing

/// Bytes from hexadecimal text (spaces ignored).
func hexBytes(_ text: String) -> [UInt8] {
    let digits = Array(text.filter { !$0.isWhitespace }.utf8)
    return stride(from: 0, to: digits.count, by: 2).map {
        UInt8(String(decoding: digits[$0..<($0 + 2)], as: UTF8.self), radix: 16)!
    }
}

/// Lower-case hexadecimal of `bytes`.
func hexText<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
    bytes.map { String(format: "%02x", $0) }.joined()
}

/// The `openssl` command, run in a scratch directory of its own.
final class OpenSSLCommand {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("cryptokit-openssl-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// The path of `name` in the scratch directory.
    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Writes `data` to `name` and returns its path.
    @discardableResult
    func write(_ name: String, _ data: Data) throws -> String {
        try data.write(to: directory.appendingPathComponent(name))
        return path(name)
    }

    /// Writes `text` to `name` and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String { try write(name, Data(text.utf8)) }

    /// The contents of `name`.
    func read(_ name: String) throws -> Data { try Data(contentsOf: directory.appendingPathComponent(name)) }

    /// Runs `openssl arguments…`; returns standard output.
    /// - Throws: `ChildProcess.Failure`, with standard error, on a non-zero exit.
    @discardableResult
    func run(_ arguments: [String]) throws -> Data {
        try ChildProcess.checked(URL(fileURLWithPath: "/usr/bin/env"), ["openssl"] + arguments, in: directory)
    }

    /// Whether `openssl arguments…` exits with 0.
    func succeeds(_ arguments: [String]) -> Bool { (try? run(arguments)) != nil }
}
