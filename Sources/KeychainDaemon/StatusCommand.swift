import Foundation
import KeychainWire

/// `keychaind status`: the daemon's status and the caller's identity as the daemon sees it, one `name: value`
/// line each. A daemon that is not there, or refuses the caller, is a line on standard error and exit status 1.
package enum StatusCommand {
    package static func run(
        socketPath: String, print output: (String) -> Void = { print($0) },
        printError errors: (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
    ) -> Int32 {
        do {
            let client = try DaemonClient(socketPath: socketPath)
            for kind in [FrameKind.status, .identify] {
                let answer = try client.request(kind)
                if answer.kind == .error {
                    let reply = try? ErrorReply.decode(answer.payload)
                    errors("keychaind: \(reply?.reason ?? "refused") (\(reply?.status ?? 0))")
                    return 1
                }
                guard let fields = try? FieldList.decode(answer.payload) else {
                    errors("keychaind: the \(answer.kind) answer does not read")
                    return 1
                }
                for field in fields.fields { output("\(field.name): \(field.value)") }
            }
            return 0
        } catch {
            errors("keychaind: \(error)")
            return 1
        }
    }
}
