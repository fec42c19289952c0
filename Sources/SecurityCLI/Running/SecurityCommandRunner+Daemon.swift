import KeychainCore
import KeychainRequests
import KeychainWire

/// The verbs that talk to keychaind itself rather than to a keychain: `security daemon status` (its version,
/// uptime, clients, queue depth and the asker's lock state, then who it takes the asker to be), `security apps
/// list` (the policy's rules) and `security apps show PATH` (the identity the policy gives that executable).
/// Each prints `name: value` lines, or a JSON object with `--json`.
extension SecurityCommandRunner {
    static let daemonVerbUsage = """
        usage: security daemon status
               security apps list
               security apps show PATH
        """

    /// Runs `arguments` when they are one of these verbs; nil when they are another command.
    func runDaemonVerb(_ arguments: [String]) -> Int32? {
        var words = arguments
        var json = false
        if let index = words.firstIndex(of: "--json") {
            json = true
            words.remove(at: index)
        }
        guard let verb = words.first, verb == "daemon" || verb == "apps" else { return nil }
        let requests: [(FrameKind, [UInt8])]
        switch (verb, Array(words.dropFirst())) {
        case ("daemon", ["status"]): requests = [(.status, []), (.identify, [])]
        case ("apps", ["list"]): requests = [(.listPolicy, [])]
        case ("apps", let operands) where operands.count == 2 && operands[0] == "show":
            requests = [(.explainExecutable, Array(operands[1].utf8))]
        default:
            errors.writeLines(Self.daemonVerbUsage)
            return ExitCode.usage
        }
        guard let socket = daemonSocket else {
            errors.writeLines(
                "security: \(verb) asks keychaind, and this process does not use it: set KEYCHAIN_SOCKET=PATH "
                    + "or the socket in /etc/keychain/daemon")
            return ExitCode.forStatus(SecurityStatus.notAvailable)
        }
        var lines: [(String, String)] = []
        do {
            let client = try DaemonClient(socketPath: socket)
            for (kind, payload) in requests {
                let answer = try client.request(kind, payload: payload)
                if answer.kind == .error {
                    let reply = try? ErrorReply.decode(answer.payload)
                    let reason = reply?.reason ?? "no reason"
                    errors.writeLines("security: keychaind refused: \(reason) (\(reply?.status ?? 0))")
                    return ExitCode.forStatus(reply?.status ?? SecurityStatus.notAvailable)
                }
                let fields = try FieldList.decode(answer.payload)
                let prefix = kind == .identify ? "caller-" : ""
                lines += fields.fields.map { (prefix + $0.name, $0.value) }
            }
        } catch {
            errors.writeLines("security: keychaind at \(socket) is not available: \(error)")
            return ExitCode.forStatus(SecurityStatus.notAvailable)
        }
        if json {
            output.writeLines(JSONText.encode(Dictionary(lines.map { ($0.0, $0.1) }) { "\($0)\n\($1)" }))
        } else {
            for (name, value) in lines { output.writeLines("\(name): \(value)") }
        }
        return ExitCode.success
    }

    /// keychaind's socket for this runner's environment (`KEYCHAIN_SOCKET`, else the administrator's setting).
    var daemonSocket: String? {
        switch source {
        case .environment(let environment): DaemonSetting.socketPath(environment: environment)
        case .configuration: DaemonSetting.socketPath(environment: EnvironmentVariables([:]))
        }
    }
}
