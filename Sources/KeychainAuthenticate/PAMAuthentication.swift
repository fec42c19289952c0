import CPAM

/// Authenticates `user` with the PAM stack of `options.service`, asking at `conversation`'s terminal.
func authenticateWithPAM(_ options: Options, user: String, conversation: TerminalConversation) -> Outcome {
    var exchange = pam_conv(conv: converse, appdata_ptr: Unmanaged.passUnretained(conversation).toOpaque())
    var handle: OpaquePointer?
    let started =
        if let directory = options.serviceDirectory {
            pam_start_confdir(options.service, user, &exchange, directory, &handle)
        } else {
            pam_start(options.service, user, &exchange, &handle)
        }
    guard started == PAM_SUCCESS, let handle else {
        report("keychain-authenticate: PAM could not start (status \(started))\n")
        return .unavailable
    }
    _ = pam_set_item(handle, PAM_TTY, options.terminal)
    var status = pam_authenticate(handle, 0)
    if status == PAM_SUCCESS { status = pam_acct_mgmt(handle, 0) }
    let explanation = String(cString: pam_strerror(handle, status))
    _ = pam_end(handle, status)
    switch status {
    case PAM_SUCCESS:
        return .authenticated
    case _ where conversation.canceled:
        return .canceled
    case PAM_AUTH_ERR, PAM_USER_UNKNOWN, PAM_MAXTRIES, PAM_CRED_INSUFFICIENT, PAM_PERM_DENIED, PAM_ACCT_EXPIRED,
        PAM_NEW_AUTHTOK_REQD:
        report("keychain-authenticate: \(explanation)\n")
        return .notAuthenticated
    default:
        report("keychain-authenticate: \(explanation)\n")
        return .unavailable
    }
}

/// PAM's questions go to the conversation, which travels as the opaque application pointer.
private let converse: @convention(c) (
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
