import KeychainCore
import SecurityCLI

/// The `security` command parser: each input line is split as `security -i` splits it and parsed, and the
/// whole input split at NUL bytes is parsed as a process's arguments. Usage errors are expected; traps are not.
extension FuzzTarget {
    static let commandParser = FuzzTarget(
        name: "command-parser",
        summary: "ShellWords.split and CommandParser.parse of input lines and NUL-separated arguments"
    ) { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard let words = try? ShellWords.split(String(line)) else { continue }
            parse(words)
        }
        parse(bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) })
    }

    private static func parse(_ arguments: [String]) {
        do {
            let invocation = try CommandParser.parse(arguments)
            _ = "\(invocation)"
        } catch {
            _ = error.description
        }
    }
}
