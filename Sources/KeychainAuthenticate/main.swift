// keychain-authenticate: device-owner authentication through PAM, for the keychain. It authenticates the user
// who runs it (never anyone else) with the PAM service's stack, at a terminal, and says how it went in its exit
// status. It holds no keychain secret: the keychain treats a success as the owner having answered its prompt.
import CPAM
import TerminalIO

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

func finish(_ outcome: Outcome, _ message: String? = nil) -> Never {
    if let message { report("keychain-authenticate: \(message)\n") }
    exit(outcome.rawValue)
}

func report(_ text: String) {
    Array(text.utf8).withUnsafeBytes { _ = PosixIO.writeAll(STDERR_FILENO, $0) }
}

guard let options = Options.parse(Array(CommandLine.arguments.dropFirst())) else {
    report(Options.usage)
    exit(Outcome.usage.rawValue)
}
guard let account = getpwuid(getuid()), let name = account.pointee.pw_name else {
    finish(.unavailable, "the user running this has no account entry")
}
let user = String(cString: name)

let terminal = open(options.terminal, O_RDWR | O_NOCTTY | O_CLOEXEC)
guard terminal >= 0, isatty(terminal) == 1 else { finish(.noTerminal, "no terminal at \(options.terminal)") }
let conversation = TerminalConversation(terminal: terminal)
if let reason = options.reason { conversation.say(reason) }

// PAM calls back with its questions; the conversation object travels as the opaque application pointer.
let converse: @convention(c) (
    Int32, UnsafeMutablePointer<UnsafePointer<pam_message>?>?, UnsafeMutablePointer<UnsafeMutablePointer<pam_response>?>?,
    UnsafeMutableRawPointer?
) -> Int32 = { count, messages, responses, application in
    guard count > 0, let messages, let responses, let application else { return PAM_CONV_ERR }
    let conversation = Unmanaged<TerminalConversation>.fromOpaque(application).takeUnretainedValue()
    var asked: [(style: Int32, text: String)] = []
    for index in 0..<Int(count) {
        guard let message = messages[index]?.pointee else { return PAM_CONV_ERR }
        asked.append((message.msg_style, message.msg.map { String(cString: $0) } ?? ""))
    }
    guard let replies = conversation.answer(asked) else { return PAM_CONV_ERR }
    responses.pointee = replies
    return PAM_SUCCESS
}

var exchange = pam_conv(conv: converse, appdata_ptr: Unmanaged.passUnretained(conversation).toOpaque())
var handle: OpaquePointer?
let started =
    if let directory = options.serviceDirectory {
        pam_start_confdir(options.service, user, &exchange, directory, &handle)
    } else {
        pam_start(options.service, user, &exchange, &handle)
    }
guard started == PAM_SUCCESS, let handle else { finish(.unavailable, "PAM could not start (status \(started))") }
_ = pam_set_item(handle, PAM_TTY, options.terminal)

var status = pam_authenticate(handle, 0)
if status == PAM_SUCCESS { status = pam_acct_mgmt(handle, 0) }
let explanation = String(cString: pam_strerror(handle, status))
_ = pam_end(handle, status)
close(terminal)

switch status {
case PAM_SUCCESS:
    finish(.authenticated)
case _ where conversation.canceled:
    finish(.canceled)
case PAM_AUTH_ERR, PAM_USER_UNKNOWN, PAM_MAXTRIES, PAM_CRED_INSUFFICIENT, PAM_PERM_DENIED, PAM_ACCT_EXPIRED,
    PAM_NEW_AUTHTOK_REQD:
    finish(.notAuthenticated, explanation)
default:
    finish(.unavailable, explanation)
}
