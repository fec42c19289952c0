import KeychainCore
import KeychainRequests
import KeychainWire

/// The verbs that talk to keychaind itself rather than to a keychain: `security daemon status` (its version,
/// uptime, clients, queue depth and the asker's lock state, then who it takes the asker to be), `security apps
/// list` (the policy's rules) and `security apps show PATH` (the identity the policy gives that executable).
/// Each prints `name: value` lines, or a JSON object with `--json`.
extension SecurityCommandRunner {
    /// Asks keychaind `query` and prints its answer. - Returns: the exit code.
    func askDaemon(_ query: DaemonQuery) -> Int32 {
        let requests: [(FrameKind, [UInt8])]
        let verb: SecurityVerb
        switch query {
        case .status: (verb, requests) = (.daemon, [(.status, []), (.identify, [])])
        case .listApps: (verb, requests) = (.apps, [(.listPolicy, [])])
        case .showApp(let path): (verb, requests) = (.apps, [(.explainExecutable, Array(path.utf8))])
        }
        guard let socket = daemonSocket else {
            errors.writeLines(
                "security: \(verb.rawValue) asks keychaind, and this process does not use it: set KEYCHAIN_SOCKET=PATH "
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
        if format.json {
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
