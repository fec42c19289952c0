import Foundation
import KeychainCore
import KeychainWire
import Synchronization

/// Owner rights: a connection whose user the daemon has authenticated itself (PAM, through the relay of
/// ``DaemonPrompter/relay(_:on:)``) acts as the owner of its uid's keychain, in every access group there is
/// (``CallerIdentity/isOwner``: no list of groups to keep or to bound), as Keychain Access does on a Mac;
/// its adds without a group go to its own first group, and its passcode attempts are counted apart from the
/// apps' (which any app may feed wrong ones to).
/// A success is also remembered for the client's terminal session (``TerminalSession``) for the reuse window,
/// so that the next `security` process of that session is not asked again; no other session can use it.
package final class OwnerRights: Sendable {
    private let settings: OwnerSettings
    private let authentication: SystemOwnerAuthentication?
    private let log: DaemonLog
    /// Sessions holding a reusable grant, and when it ends (seconds since boot, a clock no one can set).
    private let sessions = Mutex<[TerminalSession: Double]>([:])

    package init(
        settings: OwnerSettings, authentication: SystemOwnerAuthentication?, log: DaemonLog
    ) {
        self.settings = settings
        self.authentication = authentication
        self.log = log
    }

    /// The identity a request of `connection` runs as.
    func identity(for connection: DaemonConnection, caller: CallerIdentity) -> CallerIdentity {
        connection.actsAsOwner ? Self.ownerIdentity(caller) : caller
    }

    /// Answers a `claim-owner` frame: reuses the session's grant, or authenticates the client's user with PAM
    /// through prompts on this connection. The answer is an `owner-rights` field list (`status` 0 on success).
    func claim(_ frame: Frame, peer: PeerIdentity, caller: CallerIdentity, connection: DaemonConnection) -> Frame {
        let who = "pid \(peer.pid) (uid \(peer.uid))"
        // Read by pid: the session counts only if the pid is still the client's (its pidfd shows it runs).
        let session = TerminalSession.of(pid: peer.pid, uid: peer.uid).flatMap {
            connection.process.hasExited ? nil : $0
        }
        func answer(_ status: Int32, _ reason: String, prompted: Bool, until: Double? = nil) -> Frame {
            var fields = FieldList([("status", String(status)), ("owner", status == 0 ? "yes" : "no")])
            fields.append("prompted", prompted ? "yes" : "no")
            if let until { fields.append("until", Self.wallClock(until)) }
            if status == 0 {
                fields.append("access-groups", caller.accessGroups.joined(separator: " "))
            }
            fields.append("reason", reason)
            return Frame(kind: .ownerRights, requestID: frame.requestID, payload: fields.encoded())
        }
        // An app the policy names (a sandboxed app, a service) is confined to its groups by design: neither a password
        // it relays nor a grant its terminal session holds makes it the owner. Only callers the policy does not name
        // (the `security` command among them) may claim.
        if connection.isPolicyNamedApp {
            log.warning(
                "\(who): owner rights refused: the policy names it as \(caller.applicationIdentifier ?? "an app")")
            return answer(
                SecurityStatus.missingEntitlement,
                "the administrator's policy names this program as the app \(caller.applicationIdentifier ?? "-"), and "
                    + "an app named by the policy never acts as the keychain's owner", prompted: false)
        }
        if connection.actsAsOwner {
            return answer(0, "this connection holds owner rights", prompted: false, until: session.flatMap(expiry))
        }
        if let session, let until = expiry(of: session) {
            connection.actsAsOwner = true
            log.info("\(who): owner rights reused from \(session) (until \(Self.wallClock(until)))")
            return answer(0, "owner rights of this terminal session reused", prompted: false, until: until)
        }
        guard let authentication else {
            log.warning("\(who): owner rights refused: no system authentication (keychain-authenticate) is set up")
            return answer(SecurityStatus.notAvailable, "keychaind has no system authentication set up", prompted: false)
        }
        guard let user = DaemonPrompter.userName(peer.uid) else {
            log.warning("\(who): owner rights refused: uid \(peer.uid) has no account entry")
            return answer(SecurityStatus.authFailed, "the caller's uid has no account to authenticate", prompted: false)
        }
        let route = DaemonPrompter.Route(connection: connection, requestID: frame.requestID, uid: peer.uid)
        // The client's text comes after what the daemon itself says: who asks (its finding) and what it asks for.
        let reason = PromptText.ownerClaim(
            asker: caller, reason: String(decoding: frame.payload.prefix(1024), as: UTF8.self))
        let outcome = authentication.authenticate(user: user, reason: reason) { DaemonPrompter.relay($0, on: route) }
        do {
            try outcome.requireSuccess()
        } catch let failure as AuthenticationFailure {
            let status = failure.keychainError.status
            log.warning("\(who): owner rights refused for \(user): \(Self.summary(outcome)) (\(status))")
            return answer(status, Self.summary(outcome), prompted: true)
        } catch {
            return answer(SecurityStatus.authFailed, "\(error)", prompted: true)
        }
        connection.actsAsOwner = true
        var until: Double?
        if let session, settings.windowSeconds > 0 {
            let end = ProcFile.secondsSinceBoot() + Double(settings.windowSeconds)
            sessions.withLock { $0[session] = end }
            until = end
        }
        let scope = until.map { end in session.map { "for \($0) until \(Self.wallClock(end))" } } ?? nil
        log.info(
            "\(who): owner rights granted to \(user) by PAM service \(authentication.service) "
                + (scope ?? "for this connection only"))
        return answer(0, "authenticated by PAM", prompted: true, until: until)
    }

    /// `status` fields: whether the asker's terminal session holds owner rights, and until when.
    func statusFields(peer: PeerIdentity) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = [("owner-window", String(settings.windowSeconds))]
        if let session = TerminalSession.of(pid: peer.pid, uid: peer.uid), let until = expiry(of: session) {
            fields.append(("owner", "yes"))
            fields.append(("owner-until", Self.wallClock(until)))
        } else {
            fields.append(("owner", "no"))
        }
        return fields
    }

    /// When the session's grant ends; nil when it has none or it ended (ended grants are forgotten here).
    private func expiry(of session: TerminalSession) -> Double? {
        let now = ProcFile.secondsSinceBoot()
        return sessions.withLock { grants in
            grants = grants.filter { $0.value > now }
            return grants[session]
        }
    }

    private static func ownerIdentity(_ caller: CallerIdentity) -> CallerIdentity {
        CallerIdentity(
            applicationIdentifier: caller.applicationIdentifier, accessGroups: caller.accessGroups,
            isOwner: true)
    }

    private static func summary(_ outcome: SystemAuthenticationOutcome) -> String {
        switch outcome {
        case .authenticated: "authenticated"
        case .notAuthenticated: "PAM did not authenticate the user"
        case .canceled: "the user canceled"
        case .noTerminal: "nobody could be asked"
        case .noReader: "no fingerprint reader"
        case .unavailable(let why): "PAM could not be used: \(why)"
        }
    }

    /// A time since boot as a wall-clock time (ISO 8601, UTC).
    private static func wallClock(_ sinceBoot: Double) -> String {
        let date = Date().addingTimeInterval(sinceBoot - ProcFile.secondsSinceBoot())
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: date)
    }
}
