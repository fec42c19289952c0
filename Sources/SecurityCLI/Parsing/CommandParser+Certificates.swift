import KeychainMessages

/// The verbs of certificates, identities and keys.
extension CommandParser {
    static func certificateCommand(_ verb: SecurityVerb, _ arguments: [String]) throws(UsageError) -> SecurityCommand {
        // `import FILE -k …`: macOS takes the file before the options.
        var arguments = arguments
        var leading: String?
        if verb == .importItems, let first = arguments.first, !first.hasPrefix("-") {
            leading = first
            arguments.removeFirst()
        }
        let (options, operands) = try OptionScanner(specification: verb.options, verb: verb).scan(arguments)
        if let keychain = options.first(where: { $0.letter == "k" })?.value, verb != .importItems {
            throw UsageError(.keychainOperand(name: keychain), verb: verb)
        }
        switch verb {
        case .findCertificate:
            try noOperands(verb, operands)
            var command = FindCertificateCommand()
            for option in options {
                switch option.letter {
                case "a": command.all = true
                case "c": command.name = option.value
                case "e": command.email = option.value
                case "m": command.showEmails = true
                case "p": command.pem = true
                default: command.hashes = true
                }
            }
            return .findCertificate(command)
        case .deleteCertificate, .deleteIdentity:
            try noOperands(verb, operands)
            var command = DeleteCertificateCommand(identity: verb == .deleteIdentity)
            for option in options {
                switch option.letter {
                case "c": command.name = option.value
                case "Z": command.hash = option.value
                default: break  // -t: trust settings, which this keychain does not keep
                }
            }
            guard command.name != nil || command.hash != nil else { throw UsageError(.optionRequired("c"), verb: verb) }
            return .deleteCertificate(command)
        case .findIdentity:
            try noOperands(verb, operands)
            var command = FindIdentityCommand()
            for option in options {
                switch option.letter {
                case "p":
                    let value = option.value ?? ""
                    guard let policy = FindIdentityCommand.Policy(rawValue: value) else {
                        throw UsageError(
                            .oneOf(
                                option: "p", allowed: FindIdentityCommand.Policy.allCases.map(\.rawValue),
                                value: value), verb: verb)
                    }
                    command.policy = policy
                case "s": command.string = option.value
                default: command.validOnly = true
                }
            }
            return .findIdentity(command)
        case .addCertificates:
            guard !operands.isEmpty else { throw UsageError(.oneFileOperand, verb: verb) }
            return .addCertificates(operands)
        case .importItems:
            guard let file = leading ?? operands.first, operands.count <= (leading == nil ? 1 : 0) else {
                throw UsageError(.oneFileOperand, verb: verb)
            }
            var command = ImportCommand(file: file)
            for option in options {
                switch option.letter {
                case "P": command.passphrase = .commandLine(CommandLineSecret(utf8: option.value ?? ""))
                case "t": command.type = option.value
                case "f": command.format = option.value
                default: break  // -k (the one keychain), -w, -x, -A, -T: accepted
                }
            }
            return .importItems(command)
        case .exportItems:
            try noOperands(verb, operands)
            var command = ExportCommand()
            for option in options {
                let value = option.value ?? ""
                switch option.letter {
                case "t":
                    guard let type = ExportCommand.ItemType(rawValue: value) else {
                        throw UsageError(
                            .oneOf(option: "t", allowed: ExportCommand.ItemType.allCases.map(\.rawValue), value: value),
                            verb: verb)
                    }
                    command.type = type
                case "f":
                    guard let format = ExportCommand.Format(rawValue: value) else {
                        throw UsageError(
                            .oneOf(option: "f", allowed: ExportCommand.Format.allCases.map(\.rawValue), value: value),
                            verb: verb)
                    }
                    command.format = format
                case "P": command.passphrase = .commandLine(CommandLineSecret(utf8: value))
                case "o": command.outputFile = value
                default: break  // -p (PEM armour: the pemseq form is PEM), -w, -q
                }
            }
            return .exportItems(command)
        case .createKeypair:
            guard operands.count == 1, let name = operands.first else { throw UsageError(.oneNameOperand, verb: verb) }
            var command = CreateKeypairCommand(name: name)
            for option in options {
                let value = option.value ?? ""
                switch option.letter {
                case "a":
                    guard let algorithm = CreateKeypairCommand.Algorithm(rawValue: value) else {
                        throw UsageError(
                            .oneOf(
                                option: "a", allowed: CreateKeypairCommand.Algorithm.allCases.map(\.rawValue),
                                value: value), verb: verb)
                    }
                    command.algorithm = algorithm
                case "s":
                    guard let size = Int(value), size > 0 else {
                        throw UsageError(.oneOf(option: "s", allowed: ["a key size in bits"], value: value), verb: verb)
                    }
                    command.size = size
                default: break  // -f, -t, -d (validity of macOS's CSSM keys), -A, -T: accepted
                }
            }
            return .createKeypair(command)
        default:
            throw UsageError(.illegalOption(verb.rawValue), verb: verb)
        }
    }

    private static func noOperands(_ verb: SecurityVerb, _ operands: [String]) throws(UsageError) {
        if let operand = operands.first { throw UsageError(.keychainOperand(name: operand), verb: verb) }
    }
}
