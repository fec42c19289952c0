@_implementationOnly import CPAM

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// How a PAM authentication ended.
public enum PAMResult: Equatable, Sendable {
    case authenticated
    /// The stack refused the user; the text is PAM's.
    case refused(String)
    /// The user canceled at a prompt.
    case canceled
    /// The stack could not be run; the text says why.
    case unavailable(String)
}

/// Authenticates `user` with the stack of PAM service `service` (`pam_authenticate`, then `pam_acct_mgmt`),
/// asking through `conversation`.
/// - Parameters:
///   - serviceDirectory: a directory of service files to use instead of `/etc/pam.d`.
///   - terminal: the terminal's name, for modules that look at `PAM_TTY`.
public func authenticateWithPAM(
    service: String, user: String, serviceDirectory: String?, terminal: String?, conversation: PAMConversation
) -> PAMResult {
    let session = ConversationState(conversation)
    var exchange = pam_conv(conv: converse, appdata_ptr: Unmanaged.passUnretained(session).toOpaque())
    var handle: OpaquePointer?
    let started =
        if let serviceDirectory {
            pam_start_confdir(service, user, &exchange, serviceDirectory, &handle)
        } else {
            pam_start(service, user, &exchange, &handle)
        }
    guard started == PAM_SUCCESS, let handle else { return .unavailable("PAM could not start (status \(started))") }
    if let terminal { _ = pam_set_item(handle, PAM_TTY, terminal) }
    var status = pam_authenticate(handle, 0)
    if status == PAM_SUCCESS { status = pam_acct_mgmt(handle, 0) }
    let explanation = String(cString: pam_strerror(handle, status))
    _ = pam_end(handle, status)
    switch status {
    case PAM_SUCCESS:
        return .authenticated
    case _ where session.canceled:
        return .canceled
    case PAM_AUTH_ERR, PAM_USER_UNKNOWN, PAM_MAXTRIES, PAM_CRED_INSUFFICIENT, PAM_PERM_DENIED, PAM_ACCT_EXPIRED,
        PAM_NEW_AUTHTOK_REQD:
        return .refused(explanation)
    default:
        return .unavailable(explanation)
    }
}

/// The conversation and whether the user canceled, carried through PAM as the opaque application pointer.
private final class ConversationState {
    let conversation: PAMConversation
    var canceled = false

    init(_ conversation: PAMConversation) {
        self.conversation = conversation
    }

    /// The answers to `messages`, in memory PAM takes over and frees; nil after a cancel or an unknown style.
    func answer(_ messages: [(style: Int32, text: String)]) -> UnsafeMutablePointer<pam_response>? {
        guard
            let replies = calloc(messages.count, MemoryLayout<pam_response>.stride)?
                .assumingMemoryBound(to: pam_response.self)
        else { return nil }
        for (index, message) in messages.enumerated() {
            switch message.style {
            case PAM_PROMPT_ECHO_OFF, PAM_PROMPT_ECHO_ON:
                guard var typed = conversation.ask(message.text, hidden: message.style == PAM_PROMPT_ECHO_OFF),
                    let copy = calloc(typed.count + 1, 1)?.assumingMemoryBound(to: CChar.self)
                else {
                    canceled = true
                    Self.release(replies, count: messages.count)
                    return nil
                }
                typed.withUnsafeBytes { bytes in
                    if let base = bytes.baseAddress { memcpy(copy, base, bytes.count) }
                }
                typed.withUnsafeMutableBytes { bytes in
                    if let base = bytes.baseAddress { explicit_bzero(base, bytes.count) }
                }
                replies[index].resp = copy
            case PAM_ERROR_MSG, PAM_TEXT_INFO:
                conversation.tell(message.text, isError: message.style == PAM_ERROR_MSG)
            default:
                Self.release(replies, count: messages.count)
                return nil
            }
        }
        return replies
    }

    /// Wipes and frees the answers given so far.
    private static func release(_ replies: UnsafeMutablePointer<pam_response>, count: Int) {
        for index in 0..<count {
            if let answer = replies[index].resp {
                explicit_bzero(answer, strlen(answer))
                free(answer)
            }
        }
        free(replies)
    }
}

/// PAM's callback: its questions go to the conversation state behind the application pointer.
private let converse:
    @convention(c) (
        Int32, UnsafeMutablePointer<UnsafePointer<pam_message>?>?,
        UnsafeMutablePointer<UnsafeMutablePointer<pam_response>?>?,
        UnsafeMutableRawPointer?
    ) -> Int32 = { count, messages, responses, application in
        guard count > 0, let messages, let responses, let application else { return PAM_CONV_ERR }
        let session = Unmanaged<ConversationState>.fromOpaque(application).takeUnretainedValue()
        var asked: [(style: Int32, text: String)] = []
        for index in 0..<Int(count) {
            guard let message = messages[index]?.pointee else { return PAM_CONV_ERR }
            asked.append((message.msg_style, message.msg.map { String(cString: $0) } ?? ""))
        }
        guard let replies = session.answer(asked) else { return PAM_CONV_ERR }
        responses.pointee = replies
        return PAM_SUCCESS
    }
