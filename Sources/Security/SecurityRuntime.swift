import Foundation
import KeychainCore
import KeychainMessages
import KeychainRequests

/// Which keychain the SecItem functions use. By default, one per process, built once from the environment
/// (`KEYCHAIN_HOME`, `KEYCHAIN_ENTITLEMENTS`; see `KeychainConfiguration.fromEnvironment()`). The functions
/// reach it only through requests to a `KeychainService` (in process, `InProcessKeychainService`).
///
/// Tests and embedding programs can install another keychain for the whole process, or for one task and
/// the tasks it creates, so parallel tests never share a keychain. This type exists only on Linux.
public enum SecurityRuntime {
    /// Uses `keychain` for every SecItem call of the process from now on (unless a task overrides it).
    public static func install(_ keychain: Keychain) {
        ProcessKeychain.install(keychain)
    }

    /// Runs `body` with `keychain` as the keychain of this task and its child tasks.
    /// - Returns: what `body` returns.
    public static func withKeychain<R>(_ keychain: Keychain, _ body: () throws -> R) rethrows -> R {
        try ProcessKeychain.$taskKeychain.withValue(keychain) {
            try ProcessKeychainService.$taskService.withValue(InProcessKeychainService(keychain), operation: body)
        }
    }

    /// Runs `body` with `keychain` as the keychain of this task and its child tasks.
    /// - Returns: what `body` returns.
    public static func withKeychain<R>(_ keychain: Keychain, _ body: () async throws -> R) async rethrows -> R {
        try await ProcessKeychain.$taskKeychain.withValue(keychain) {
            try await ProcessKeychainService.$taskService.withValue(InProcessKeychainService(keychain), operation: body)
        }
    }

    /// The service a SecItem call uses now, as the process's caller.
    static func current() throws -> KeychainClient {
        // Shared with LocalAuthentication, so an LAContext evaluates against the same keychain.
        KeychainClient(service: try ProcessKeychainService.current())
    }

    /// Whether failing calls explain themselves on standard error (`KEYCHAIN_DEBUG` set and not "0").
    static let logsReasons: Bool = {
        let value = EnvironmentVariables.process["KEYCHAIN_DEBUG"]
        return value != nil && value != "0"
    }()

    /// Writes `message` to standard error when `KEYCHAIN_DEBUG` asks for it.
    static func log(_ function: String, _ message: String) {
        guard logsReasons else { return }
        FileHandle.standardError.write(Data("\(function): \(message)\n".utf8))
    }

    /// Writes a call's notes (keys it ignored, combinations it warns of) when `KEYCHAIN_DEBUG` asks for it, in the
    /// locale's language as a failure's reason is.
    static func log(_ function: String, notes: [KeychainError.Reason]) {
        guard logsReasons else { return }
        for line in noteLines(function, notes, in: .current) {
            FileHandle.standardError.write(Data("\(line)\n".utf8))
        }
    }

    /// The lines `log(_:notes:)` writes for `notes` in `language`.
    static func noteLines(_ function: String, _ notes: [KeychainError.Reason], in language: MessageLanguage)
        -> [String]
    {
        notes.map { "\(function): \($0.text(in: language))" }
    }

    /// Runs one SecItem call: maps `KeychainError` to its status and, when enabled, logs the reason.
    static func perform(_ function: String, _ body: (KeychainClient) throws -> Void) -> OSStatus {
        do {
            try body(try current())
            return errSecSuccess
        } catch let error as KeychainError {
            log(function, SecurityStatusText.debugLine(for: error, in: .current))
            return error.status
        } catch {
            // Not a keychain failure (a bug, or a system error nothing translated): say what it was.
            log(function, "OSStatus \(errSecInternalComponent): an internal error: \(type(of: error))")
            return errSecInternalComponent
        }
    }
}
