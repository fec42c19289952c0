// keychain-authenticate: the keychain's door to the system's authentication. It authenticates the user who
// runs it (never anyone else) through the PAM service's stack or a fingerprint read by fprintd, at a terminal,
// and says how it went in its exit status; or it lists the fingers fprintd has enrolled. It holds no keychain
// secret: the keychain treats a success as the owner having answered its prompt.
import SystemBus
import SystemCalls
import TerminalIO

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

func report(_ text: String) {
    Array(text.utf8).withUnsafeBytes { _ = PosixIO.writeAll(STDERR_FILENO, $0) }
}

func finish(_ outcome: Outcome, _ message: String? = nil) -> Never {
    if let message { report("keychain-authenticate: \(message)\n") }
    exit(outcome.rawValue)
}

// The user's system password passes through this process: it must not end up in a core file.
try? SystemCalls.forbidCoreFiles()

guard let options = Options.parse(Array(CommandLine.arguments.dropFirst())) else {
    report(Options.usage)
    exit(Outcome.usage.rawValue)
}
let user: String
if let named = options.user {
    user = named
} else {
    guard let account = getpwuid(getuid()), let name = account.pointee.pw_name else {
        finish(.unavailable, "the user running this has no account entry")
    }
    user = String(cString: name)
}

func openConversation() -> TerminalConversation {
    let terminal = open(options.terminal, O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard terminal >= 0, isatty(terminal) == 1 else { finish(.noTerminal, "no terminal at \(options.terminal)") }
    // Asking from the background would stop this helper, and the app waiting for it, with nobody to resume them.
    guard !JobControl.isInBackground(of: terminal) else {
        finish(.noTerminal, JobControl.backgroundReason(options.terminal))
    }
    let conversation = TerminalConversation(terminal: terminal)
    if let reason = options.reason { conversation.say(reason) }
    return conversation
}

func fprintd() -> Fprintd {
    do {
        return Fprintd(bus: try BusConnection(address: options.bus), user: user)
    } catch {
        finish(.unavailable, "no bus for fprintd: \(error)")
    }
}

switch options.mode {
case .password where options.relays:
    let relay = RelayConversation()
    if let reason = options.reason { relay.say(reason) }
    finish(authenticateWithPAM(options, user: user, conversation: relay))
case .password:
    finish(authenticateWithPAM(options, user: user, conversation: openConversation()))
case .fingers:
    let service = fprintd()
    do {
        guard let device = try service.defaultDevice() else { finish(.noReader, "no fingerprint reader") }
        var lines = "device \(device)\n"
        for finger in try service.enrolledFingers(on: device) { lines += "finger \(finger)\n" }
        Array(lines.utf8).withUnsafeBytes { _ = PosixIO.writeAll(STDOUT_FILENO, $0) }
        finish(.authenticated)
    } catch {
        finish(.unavailable, "fprintd: \(error)")
    }
case .fingerprint:
    let service = fprintd()
    let device: String
    do {
        guard let found = try service.defaultDevice() else { finish(.noReader, "no fingerprint reader") }
        device = found
    } catch {
        finish(.unavailable, "fprintd: \(error)")
    }
    let conversation: FingerConversation
    if options.relays {
        let relay = RelayConversation()
        if let reason = options.reason { relay.say(reason) }
        conversation = relay
    } else {
        conversation = openConversation()
    }
    finish(service.verify(on: device, conversation: conversation, timeoutSeconds: 30))
}
