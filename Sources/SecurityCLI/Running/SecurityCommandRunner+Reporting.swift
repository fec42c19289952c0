import KeychainCore
import KeychainMessages
import KeychainRequests
import Security

extension SecurityCommandRunner {
    /// Writes a failure: macOS's message line, then (unless `-q`) the keychain's reason; with `-v` the status and
    /// exit code; with `--json` also an `{"error": …}` object on standard output.
    func report(_ failure: CommandFailure) {
        let lines = failure.messageLines(in: language)
        for line in format.quiet ? Array(lines.prefix(1)) : lines { errors.writeLine(line) }
        var status: Int32?
        var object: [String: Any] = ["operation": failure.operation]
        if case .keychain(let error) = failure.cause {
            status = error.status
            object["status"] = Int(error.status)
            object["message"] = error.message
            if let reason = error.reason { object["reason"] = reason }
        } else {
            object["message"] = failure.messageLines().first.map { String($0.dropFirst("security: ".count)) } ?? ""
        }
        if format.verbose {
            errors.writeLine("security: " + (status.map { "OSStatus \($0), " } ?? "") + "exit code \(failure.exitCode)")
        }
        if format.json { output.writeLine(JSONText.encode(["error": object])) }
    }

    /// `error CODE...`: macOS's line per code, `Error: 0xFFFF9D2C -25300 <message>`.
    func writeErrorMessages(_ codes: [Int32]) {
        for code in codes {
            let hex = String(UInt32(bitPattern: code), radix: 16, uppercase: true)
            let padded = "0x" + String(repeating: "0", count: max(0, 8 - hex.count)) + hex
            // SecCopyErrorMessageString's text (JSON's in English, for scripts), as macOS prints it.
            if format.json {
                let message = SecurityStatusText.message(for: code, in: .english)
                output.writeLine(JSONText.encode(["status": Int(code), "hex": padded, "message": message]))
            } else {
                output.writeLine("Error: \(padded) \(code) \(SecurityStatusText.message(for: code, in: language))")
            }
        }
    }
}

extension SecurityCommand {
    /// Verbs that print nothing when they succeed; with `--json` they print `{"status":0}`.
    var printsNothingOnSuccess: Bool {
        switch self {
        case .addPassword, .lockKeychain, .unlockKeychain, .setKeychainPassword, .setKeychainSettings,
            .simulateRestart:
            true
        default: false
        }
    }
}

extension SecurityCommand {
    /// The options that carried a secret on the command line, for the warning that other processes saw it: given
    /// whether or not the run gets as far as using the secret (nil stands for `-w`/`-X` of an add).
    var secretsOnCommandLine: [String?] {
        func given(_ input: PasscodeInput?, _ option: String) -> [String?] {
            if case .commandLine = input { return [option] }
            return []
        }
        switch self {
        case .addPassword(let command):
            if case .commandLine = command.password { return [nil] }
            return []
        case .unlockKeychain(let command): return given(command.passcode, "-p")
        case .setKeychainPassword(let command): return given(command.current, "-o") + given(command.new, "-p")
        case .backupKeychain(let command), .restoreKeychain(let command): return given(command.password, "-p")
        case .importItems(let command): return given(command.passphrase, "-P")
        case .exportItems(let command): return given(command.passphrase, "-P")
        default: return []
        }
    }
}
