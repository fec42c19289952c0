import Foundation
import KeychainTestSupport
import Security
import Testing

/// Helpers for the SecKey suites: key making that fails the test on error, error reading, and the `openssl`
/// command.
enum KeyFixtures {
    static func randomKey(_ type: CFString, bits: Int) throws -> SecKey {
        var error: Unmanaged<CFError>?
        let parameters = [kSecAttrKeyType: type, kSecAttrKeySizeInBits: bits] as CFDictionary
        guard let key = SecKeyCreateRandomKey(parameters, &error) else {
            throw KeyFixtureError.failed(error?.takeRetainedValue())
        }
        return key
    }

    static func publicKey(_ key: SecKey) throws -> SecKey { try #require(SecKeyCopyPublicKey(key)) }

    static func external(_ key: SecKey) throws -> Data {
        var error: Unmanaged<CFError>?
        guard let data = SecKeyCopyExternalRepresentation(key, &error) else {
            throw KeyFixtureError.failed(error?.takeRetainedValue())
        }
        return data as Data
    }

    /// The domain and code of an error a call left, consuming it.
    static func status(_ error: Unmanaged<CFError>?) -> (domain: String, code: Int)? {
        guard let error = error?.takeRetainedValue() else { return nil }
        return (error.domain, error.code)
    }
}

enum KeyFixtureError: Error {
    case failed(CFError?)
}

extension Data {
    init(hex: String) {
        var bytes = [UInt8]()
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        self.init(bytes)
    }

    var hex: String { map { String(format: "%02x", $0) }.joined() }
}

/// The `openssl` command, run with files in a fresh directory.
struct OpenSSLCommand {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("seckey-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func write(_ data: Data, to name: String) throws { try data.write(to: directory.appendingPathComponent(name)) }

    func read(_ name: String) throws -> Data { try Data(contentsOf: directory.appendingPathComponent(name)) }

    /// Runs `openssl arguments…`; returns its standard output and exit status.
    @discardableResult
    func run(_ arguments: [String]) throws -> (output: Data, status: Int32) {
        let run = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/openssl"), arguments)
        return (run.output, run.status)
    }
}
