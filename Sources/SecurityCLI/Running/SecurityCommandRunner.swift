import KeychainCore
import KeychainMessages
import KeychainRequests
import TerminalIO

/// Runs a parsed `security` command against a keychain, writing to the given outputs, and answers the exit
/// code. Secrets reach the output only where macOS's `security` prints them (`-w`, `-g`, `dump-keychain -d`).
public final class SecurityCommandRunner {
    let source: KeychainSource
    let output: any OutputSink
    let errors: any OutputSink
    let passwords: any PasswordReader
    /// Where `-i` reads its command lines.
    let commandLines: any CommandLineSource
    /// The language of messages (not of listings, JSON or exit codes): English, or Japanese by the locale.
    let language: MessageLanguage
    /// The `-q`, `-v` and `--json` of the command being run.
    var format = OutputOptions()
    /// The password lines the command being run has asked its reader for, and whether it found a passcode set
    /// (nil: it did not get that far). `-i` skips by them the lines a failed command left unread.
    var secretLinesRead = 0
    var passcodeIsSet: Bool?

    /// - Parameters:
    ///   - source: where the keychain and the default identity come from.
    ///   - output: standard output.
    ///   - errors: standard error (messages, warnings, `-g`'s password line).
    ///   - passwords: asked for a new item's password when `-w` is given last.
    ///   - commandLines: where `-i` reads commands (standard input by default).
    ///   - language: the language of messages (English unless given).
    public init(
        source: KeychainSource, output: any OutputSink, errors: any OutputSink, passwords: any PasswordReader,
        commandLines: any CommandLineSource = DescriptorLineSource(descriptor: 0), language: MessageLanguage = .english
    ) {
        self.language = language
        self.source = source
        self.output = output
        self.errors = errors
        self.passwords = passwords
        self.commandLines = commandLines
    }

    /// Parses and runs a command line (without the program name).
    /// - Returns: the exit code.
    public func run(arguments: [String]) -> Int32 {
        let invocation: Invocation
        do {
            invocation = try CommandParser.parse(arguments)
        } catch {
            return reportUsage(error)
        }
        return run(invocation)
    }

    /// Runs a parsed command. - Returns: the exit code.
    public func run(_ invocation: Invocation) -> Int32 {
        format = invocation.output
        // macOS's -v: the verb and its arguments first, on standard error, even with -q.
        if format.verbose, !invocation.echo.isEmpty { errors.writeLine(invocation.echo) }
        if format.leaksRequested { note(.leaksIgnored) }
        for option in invocation.command.secretsOnCommandLine { note(.commandLinePassword(option: option)) }
        do {
            switch invocation.command {
            case .help(let verb):
                let text = verb?.usage ?? SecurityVerb.overview
                output.writeLines(format.json ? JSONText.encode(["usage": text]) : text)
            case .addPassword(let command):
                try addPassword(
                    command, keychain: try open(invocation.identity, asOwner: true), identity: invocation.identity)
            case .findPassword(let command):
                try findPassword(
                    command, keychain: try open(invocation.identity, asOwner: true), identity: invocation.identity)
            case .deletePassword(let command):
                try deletePassword(
                    command, keychain: try open(invocation.identity, asOwner: true), identity: invocation.identity)
            case .dumpKeychain(let command):
                let keychain = try open(invocation.identity, asOwner: true)
                try exitingWithOne { () throws(CommandFailure) in
                    try dumpKeychain(command, keychain: keychain, identity: invocation.identity)
                }
            case .lockKeychain:
                try lockKeychain(try open(invocation.identity))
            case .unlockKeychain(let command):
                try unlockKeychain(
                    command, keychain: try open(invocation.identity), owner: ownerClient(invocation.identity))
            case .setKeychainPassword(let command):
                // Through keychaind, the keychain's protection and the simulated sensors are the owner's alone.
                try setKeychainPassword(command, keychain: try open(invocation.identity, asOwner: true))
            case .setKeychainSettings(let command):
                try setKeychainSettings(command, keychain: try open(invocation.identity, asOwner: true))
            case .showKeychainInfo(let command):
                try showKeychainInfo(command, keychain: try open(invocation.identity))
            case .simulateRestart:
                let keychain = try open(invocation.identity, asOwner: true)
                try perform("simulate-restart") { try keychain.simulateRestart() }
            case .biometry(let command):
                try biometry(command, keychain: try open(invocation.identity, asOwner: command != .status))
            case .companion(let command):
                try companion(command, keychain: try open(invocation.identity, asOwner: command != .status))
            case .backupKeychain(let command):
                try refuseIdentityOptions(invocation.command, invocation.identity)
                try backupKeychain(command, keychain: try open(invocation.identity, asOwner: true))
            case .restoreKeychain(let command):
                try refuseIdentityOptions(invocation.command, invocation.identity)
                try restoreKeychain(command, keychain: try open(invocation.identity, asOwner: true))
            case .errorMessage(let codes):
                writeErrorMessages(codes)
                return ExitCode.success
            case .doctor(let command):
                return try diagnose(command, keychain: try open(invocation.identity), identity: invocation.identity)
            case .interactive:
                return runInteractive(invocation)
            case .verifyCert(let command):
                return try verifyCertificates(command)
            case .findCertificate(let command): try findCertificate(command, identity: invocation.identity)
            case .findIdentity(let command): try findIdentity(command, identity: invocation.identity)
            case .deleteCertificate(let command): try deleteCertificate(command, identity: invocation.identity)
            case .addCertificates(let files): return try addCertificates(files, identity: invocation.identity)
            case .importItems(let command): try importItems(command, identity: invocation.identity)
            case .exportItems(let command): try exportItems(command, identity: invocation.identity)
            case .createKeypair(let command): try createKeypair(command, identity: invocation.identity)
            case .daemonQuery(let query): return askDaemon(query)
            }
            if format.json, invocation.command.printsNothingOnSuccess { output.writeLine("{\"status\":0}") }
            return ExitCode.success
        } catch {
            report(error)
            return error.exitCode
        }
    }

    func reportUsage(_ error: UsageError) -> Int32 {
        if error.catalogMessage == .noCommand {
            // As macOS: `security` alone prints its usage on standard output.
            output.writeLines(SecurityVerb.overview)
            return ExitCode.usage
        }
        if error.hasMessageLine { errors.writeLine("security: \(error.text(in: language))") }
        if error.showsUsage { errors.writeLines(error.verb?.usage ?? SecurityVerb.overview) }
        return error.exitCode
    }

    /// Writes one of the command's own notes or warnings to standard error, unless `-q`.
    func note(_ message: CommandMessage) {
        guard !format.quiet else { return }
        errors.writeLine("security: " + message.text(in: language))
    }

    /// Opens the keychain, and a client of its service acting as the identity the options choose; through
    /// keychaind, the identity the daemon gives, claiming owner rights first when `asOwner` (+Owner).
    private func open(_ identity: IdentityOptions, asOwner: Bool = false) throws(CommandFailure) -> KeychainClient {
        if case .environment = source, let socket = daemonSocket {
            return daemonClient(socket, identity: identity, asOwner: asOwner)
        }
        do {
            let configuration = try source.configuration(for: identity)
            let keychain = try Keychain(configuration: configuration)
            return KeychainClient(
                service: InProcessKeychainService(keychain), caller: Caller(identity: configuration.identity))
        } catch let error as KeychainError {
            throw CommandFailure("SecKeychainCopyDefault", error)
        } catch {
            throw CommandFailure("SecKeychainCopyDefault", KeychainError.notAvailable.because("\(error)"))
        }
    }

    /// Runs one keychain call, naming it as macOS would if it fails.
    func perform<Result>(_ operation: String, _ body: () throws -> Result) throws(CommandFailure) -> Result {
        do {
            return try body()
        } catch let error as KeychainError {
            throw CommandFailure(operation, error)
        } catch {
            throw CommandFailure(operation, KeychainError.io.because("\(error)"))
        }
    }

    /// The printed form of an item's attributes.
    func listing(_ keychain: KeychainClient) -> ItemListing {
        ItemListing(keychainPath: (try? keychain.describeService().databasePath) ?? Keychain.databaseFileName)
    }

    /// Writes a secret, formatted and followed by a newline, to `sink`, then wipes every copy this function made.
    /// The formatted line is built in one buffer reserved large enough up front, so it never reallocates.
    func writeSecret(
        _ secret: Secret?, to sink: any OutputSink, prefix: String = "",
        format: (_ bytes: [UInt8], _ output: inout [UInt8]) -> Void
    ) {
        var bytes = secret?.bytes ?? []
        var printed: [UInt8] = []
        printed.reserveCapacity(prefix.utf8.count + BufferFormatter.reservation(for: bytes.count))
        printed += prefix.utf8
        format(bytes, &printed)
        printed.append(UInt8(ascii: "\n"))
        sink.write(printed)
        PosixIO.wipe(&printed)
        PosixIO.wipe(&bytes)
    }
}
