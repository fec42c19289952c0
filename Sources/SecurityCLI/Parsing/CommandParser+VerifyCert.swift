import Foundation
import KeychainMessages

extension CommandParser {
    /// `verify-cert`'s options: `-c` and `-r` repeat; `-k` names a keychain (there is one); `-R` asks for
    /// revocation checking (not done here); `-L`, `-l` and `-N` are accepted: nothing is fetched from the network,
    /// a CA leaf is not an error, and no keychain is searched for intermediates.
    static func verifyCertCommand(_ options: [ScannedOption]) throws(UsageError) -> VerifyCertCommand {
        var command = VerifyCertCommand()
        for option in options {
            let value = option.value ?? ""
            switch option.letter {
            case "c": command.certificateFiles.append(value)
            case "r": command.anchorFiles.append(value)
            case "p":
                guard let policy = VerifyCertCommand.Policy(rawValue: value) else {
                    throw UsageError(
                        .oneOf(option: "p", allowed: VerifyCertCommand.Policy.allCases.map(\.rawValue), value: value),
                        verb: .verifyCert)
                }
                command.policy = policy
            case "s", "n": command.hostName = value
            case "d":
                guard let date = verifyDate(value) else { throw UsageError(.verifyDate(value), verb: .verifyCert) }
                command.date = date
            case "C": command.client = true
            case "q": command.quiet = true
            case "k": throw UsageError(.keychainOperand(name: value), verb: .verifyCert)
            case "R": throw UsageError(.revocationChecking, verb: .verifyCert)
            default: break  // -L, -l, -N
            }
        }
        guard !command.certificateFiles.isEmpty else { throw UsageError(.optionRequired("c"), verb: .verifyCert) }
        return command
    }

    /// macOS's `-d` form, in GMT: `2016-04-25-15:59:59`, the time optional.
    static func verifyDate(_ text: String) -> Date? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3 || parts.count == 4 else { return nil }
        let time =
            parts.count == 4 ? parts[3].split(separator: ":", omittingEmptySubsequences: false) : ["0", "0", "0"]
        guard time.count == 3 else { return nil }
        let numbers = (parts[0..<3] + time).map { part in
            !part.isEmpty && part.allSatisfy { ("0"..."9").contains($0) } ? Int(part) : nil
        }
        guard numbers.allSatisfy({ $0 != nil }), parts[0].count == 4 else { return nil }
        var components = DateComponents()
        components.year = numbers[0]
        components.month = numbers[1]
        components.day = numbers[2]
        components.hour = numbers[3]
        components.minute = numbers[4]
        components.second = numbers[5]
        var calendar = Calendar(identifier: .gregorian)
        guard let utc = TimeZone(identifier: "UTC") else { return nil }
        calendar.timeZone = utc
        guard components.isValidDate(in: calendar), let date = calendar.date(from: components) else { return nil }
        return date
    }
}
