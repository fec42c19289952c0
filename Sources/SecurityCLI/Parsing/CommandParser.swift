import KeychainCore
import KeychainMessages
import TerminalIO

/// Turns the words after `security` into an `Invocation`, without touching the keychain.
public enum CommandParser {
    /// Parses global options, the verb and its options.
    /// - Parameter arguments: the command line without the program name.
    /// - Returns: the typed command.
    /// - Throws: `UsageError` for anything that cannot be run as written.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        var identity = IdentityOptions()
        var output = OutputOptions()
        var interactive = false
        var showsHelp = false
        var rest = arguments[...]
        while let word = rest.first, word.hasPrefix("-"), word.count > 1 {
            rest = rest.dropFirst()
            switch word {
            case "--help": showsHelp = true
            case "--json": output.json = true
            case "--app": identity.actsAsApp = true
            case "--entitlements", "-G", "--access-group":
                guard let value = rest.first else {
                    throw UsageError(.missingArgument("-- \(word)"))
                }
                rest = rest.dropFirst()
                if word == "--entitlements" { identity.entitlementsFile = value } else { identity.accessGroup = value }
            case _ where word.hasPrefix("--entitlements="):
                identity.entitlementsFile = String(word.dropFirst("--entitlements=".count))
            case _ where word.hasPrefix("--access-group="):
                identity.accessGroup = String(word.dropFirst("--access-group=".count))
            case _ where word.hasPrefix("--"):
                throw UsageError(.illegalOption(word))
            default:
                // macOS's getopt("hilp:qv"): letters bundle (`-qv`), and -p takes the rest of its word or the next.
                var letters = word.dropFirst()
                while let letter = letters.popFirst() {
                    switch letter {
                    case "h": showsHelp = true
                    case "q": output.quiet = true
                    case "v": output.verbose = true
                    case "i": interactive = true
                    case "l": output.leaksRequested = true
                    case "p":
                        // -p PROMPT sets the prompt of the interactive mode, and implies -i.
                        if letters.isEmpty {
                            guard let value = rest.first else { throw UsageError(.missingArgument("-- p")) }
                            rest = rest.dropFirst()
                            output.prompt = value
                        } else {
                            output.prompt = String(letters)
                            letters = ""
                        }
                        interactive = true
                    default: throw UsageError(.illegalOption(word))
                    }
                }
            }
        }
        // As macOS: -h shows the usage of the verbs named after it, or the list of verbs.
        if showsHelp { return Invocation(identity: identity, command: try command(.help, Array(rest)), output: output) }
        if identity.entitlementsFile == "" { throw UsageError(.entitlementsFileMissing) }
        if identity.accessGroup == "" { throw UsageError(.emptyAccessGroup) }
        if interactive {
            guard rest.isEmpty else { throw UsageError(.interactiveTakesNoCommand) }
            return Invocation(identity: identity, command: .interactive, output: output)
        }
        guard let name = rest.first else { throw UsageError(.noCommand) }
        guard let verb = SecurityVerb(rawValue: name) else { throw unknownVerb(name) }
        var verbArguments = Array(rest.dropFirst())
        // `--json` works after any verb too: taken out of the options (never after `--`).
        let optionsEnd = verbArguments.firstIndex(of: "--") ?? verbArguments.endIndex
        if verbArguments[..<optionsEnd].contains("--json") {
            output.json = true
            verbArguments = verbArguments[..<optionsEnd].filter { $0 != "--json" } + verbArguments[optionsEnd...]
        }
        if verbArguments == ["-h"] || verbArguments == ["--help"] {
            // macOS answers `VERB -h` as a usage error: the usage on standard error.
            throw UsageError(.usageRequested, verb: verb)
        }
        var parsed = try command(verb, verbArguments)
        if output.json, case .showKeychainInfo = parsed {
            parsed = .showKeychainInfo(ShowKeychainInfoCommand(json: true))
        }
        var invocation = Invocation(identity: identity, command: parsed, output: output)
        invocation.echo = VerbEcho.words(verb, verbArguments)
        return invocation
    }

    private static func command(_ verb: SecurityVerb, _ arguments: [String]) throws(UsageError) -> SecurityCommand {
        if verb == .help {
            guard arguments.count <= 1 else { throw UsageError(.helpTakesOneCommand, verb: .help) }
            guard let name = arguments.first else { return .help(nil) }
            guard let named = SecurityVerb(rawValue: name) else {
                if MacOSOnlyVerb.explanation(for: name) != nil { throw unknownVerb(name) }
                throw UsageError(.helpNoSuchCommand(name), verb: .help)
            }
            return .help(named)
        }
        if verb == .error { return .errorMessage(try statusCodes(arguments)) }
        if verb == .doctor { return .doctor(try doctorCommand(arguments)) }
        if verb.isCertificateVerb { return try certificateCommand(verb, arguments) }
        if verb == .daemon || verb == .apps { return .daemonQuery(try daemonQuery(verb, arguments)) }
        let (options, operands) = try OptionScanner(specification: verb.options, verb: verb).scan(arguments)
        if !verb.takesFileOperand, let operand = operands.first {
            throw UsageError(.keychainOperand(name: operand), verb: verb)
        }
        switch verb {
        case .help:
            return .help(nil)
        case .addGenericPassword, .addInternetPassword:
            return .addPassword(try addCommand(verb, options))
        case .findGenericPassword, .findInternetPassword:
            var display = PasswordDisplay.hidden
            var matching: [ScannedOption] = []
            for option in options {
                switch option.letter {
                case "g": if display == .hidden { display = .withAttributes }
                case "w": display = .only
                default: matching.append(option)
                }
            }
            let attributes = try ItemAttributeOptions(verb: verb).attributes(from: matching)
            return .findPassword(
                FindPasswordCommand(itemClass: verb.itemClass, attributes: attributes, display: display))
        case .deleteGenericPassword, .deleteInternetPassword:
            let attributes = try ItemAttributeOptions(verb: verb).attributes(from: options)
            // As macOS: a delete names what it deletes. A script whose options came out empty must not delete
            // whichever item comes first.
            guard !attributes.isEmpty else { throw UsageError(.searchOptionRequired, verb: verb) }
            return .deletePassword(DeletePasswordCommand(itemClass: verb.itemClass, attributes: attributes))
        case .dumpKeychain:
            var dump = DumpKeychainCommand()
            for option in options {
                switch option.letter {
                case "d": dump.includeSecrets = true
                case "o": dump.outputFile = option.value
                case "a":
                    throw UsageError(.dumpAccessLists, verb: verb)
                case "r": throw UsageError(.dumpRawData, verb: verb)
                default: throw UsageError(.dumpAccessListEditing, verb: verb)
                }
            }
            return .dumpKeychain(dump)
        case .lockKeychain, .unlockKeychain, .setKeychainPassword, .setKeychainSettings, .showKeychainInfo,
            .simulateRestart, .backupKeychain, .restoreKeychain:
            return try protectionCommand(verb, options, operands)
        case .biometry:
            guard operands.count == 1, let action = BiometryCommand(rawValue: operands[0]) else {
                throw UsageError(.nameOneAction, verb: verb)
            }
            return .biometry(action)
        case .companion: return try companionCommand(verb, operands)
        case .verifyCert: return .verifyCert(try verifyCertCommand(options))
        case .findCertificate, .findIdentity, .deleteCertificate, .deleteIdentity, .addCertificates, .importItems,
            .exportItems, .createKeypair:
            return try certificateCommand(verb, arguments)
        case .error, .doctor, .daemon, .apps:
            return .help(verb)  // parsed above
        }
    }

    /// `daemon status`, `apps list` or `apps show PATH`.
    private static func daemonQuery(_ verb: SecurityVerb, _ operands: [String]) throws(UsageError) -> DaemonQuery {
        switch (verb, operands) {
        case (.daemon, ["status"]): return .status
        case (.apps, ["list"]): return .listApps
        case (.apps, let words) where words.count == 2 && words[0] == "show": return .showApp(words[1])
        default: throw UsageError(.nameOneAction, verb: verb)
        }
    }

    /// A verb that is not here: one line on why, for a macOS verb; else the unknown-command line.
    private static func unknownVerb(_ name: String) -> UsageError {
        guard let (reason, nearest) = MacOSOnlyVerb.explanation(for: name) else {
            return UsageError(.unknownCommand(name))
        }
        return UsageError(.unsupportedVerb(verb: name, reason: reason, nearest: nearest))
    }

    private static func addCommand(_ verb: SecurityVerb, _ options: [ScannedOption]) throws(UsageError)
        -> AddPasswordCommand
    {
        var add = AddPasswordCommand(itemClass: verb.itemClass)
        var attributeOptions: [ScannedOption] = []
        for option in options {
            switch (option.letter, verb) {
            case ("w", _), ("p", .addGenericPassword):
                add.password = option.value.map { .commandLine(CommandLineSecret(utf8: $0)) } ?? .prompt
            case ("p", .addInternetPassword) where option.value == nil:
                add.password = .prompt
            case ("X", _):
                guard var bytes = option.value.flatMap(hexBytes) else {
                    throw UsageError(.hexPassword, verb: verb)
                }
                add.password = .commandLine(CommandLineSecret(bytes))
                PosixIO.wipe(&bytes)
            case ("U", _): add.updateIfExists = true
            case ("A", _): add.ignoredAccessOptions.append("-A")
            case ("T", _): add.ignoredAccessOptions.append("-T " + (option.value ?? ""))
            default: attributeOptions.append(option)
            }
        }
        add.attributes = try ItemAttributeOptions(verb: verb).attributes(from: attributeOptions)
        return add
    }

    private static func hexBytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else {
                // What was decoded so far is part of the password: wiped, not left behind.
                PosixIO.wipe(&bytes)
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension SecurityVerb {
    /// The item class a password verb works on.
    var itemClass: ItemClass {
        switch self {
        case .addInternetPassword, .findInternetPassword, .deleteInternetPassword: .internetPassword
        default: .genericPassword
        }
    }
}
