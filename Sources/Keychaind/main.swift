import DaemonSystem
import Foundation
import KeychainDaemon

// keychaind: parse, take the socket, prepare the state directory, leave root, load the policy, serve.

// Signals are taken by one thread with sigwait, so every thread created later must have them blocked.
var handled = sigset_t()
sigemptyset(&handled)
for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&handled, signal) }
pthread_sigmask(SIG_BLOCK, &handled, nil)
signal(SIGPIPE, SIG_IGN)

let log = DaemonLog()
let configuration: DaemonConfiguration
do {
    switch try DaemonCommandLine.parse(Array(CommandLine.arguments.dropFirst())) {
    case .help:
        print(DaemonCommandLine.usage)
        exit(0)
    case .status(let socketPath):
        exit(StatusCommand.run(socketPath: socketPath))
    case .run(let parsed):
        configuration = parsed
    }
} catch {
    FileHandle.standardError.write(Data("keychaind: \(error)\n\(DaemonCommandLine.usage)\n".utf8))
    exit(64)
}

do {
    let startup = try DaemonStartup(configuration: configuration, log: log)
    let server = startup.server
    Thread.detachNewThread { server.run() }
    ServiceManager.notifyReady(status: "serving on \(startup.listenerDescription)")
    log.info("version \(DaemonServer.version) serving on \(startup.listenerDescription)")
    while true {
        var received: Int32 = 0
        sigwait(&handled, &received)
        if received == SIGHUP {
            server.replaceResolver(startup.loadResolver())
            log.info("policy reloaded")
            continue
        }
        ServiceManager.notifyStopping()
        log.info("stopping (signal \(received))")
        server.shutDown()
        exit(0)
    }
} catch {
    log.warning("cannot start: \(error)")
    exit(1)
}
