import DaemonSystem
import EnclaveKeys
import KeychainCore
import KeychainCrypto
import KeychainRequests
import KeychainWire

/// Serves the engine's typed requests: each runs on the keychain of the connection's uid, as the identity the
/// daemon resolved from the kernel and the policy. Whatever identity or entitlements the client has in its own
/// process is never sent and never used. Authentication contexts are the uid's keychain's, so an id from another
/// uid's client is unknown here (errSecParam, -50); those a connection created are forgotten when it closes.
package final class EngineHandler: DaemonHandler {
    package let keychains: UserKeychains
    /// Owner rights (`claim-owner`), when the daemon grants them.
    let owner: OwnerRights?
    /// The administrator's software enclave opt-in, which the daemon's enclave reads in place of the machine's
    /// default path (`--secure-enclave-setting`).
    let enclaveSetting: SecureEnclaveSetting
    /// Runs the clients' Secure Enclave key requests with the daemon's enclave.
    let enclaveKeys = EnclaveKeyServer()

    package init(
        keychains: UserKeychains, owner: OwnerRights? = nil, enclaveSetting: SecureEnclaveSetting = .system
    ) {
        self.keychains = keychains
        self.owner = owner
        self.enclaveSetting = enclaveSetting
    }

    package func respond(to frame: Frame, peer: PeerIdentity, caller: CallerIdentity) -> Frame {
        ErrorReply(status: ErrorReply.unimplemented, reason: "\(frame.kind) needs its connection")
            .frame(requestID: frame.requestID)
    }

    package func respond(
        to frame: Frame, peer: PeerIdentity, caller: CallerIdentity, connection: DaemonConnection
    ) -> Frame {
        // Owner rights (OwnerRights.swift): the daemon authenticates the client's user itself.
        if frame.kind == .claimOwner, let owner {
            return owner.claim(frame, peer: peer, caller: caller, connection: connection)
        }
        guard frame.kind == .request else {
            return ErrorReply(
                status: ErrorReply.unimplemented, reason: "\(frame.kind) is not a request keychaind serves"
            )
            .frame(requestID: frame.requestID)
        }
        let outcome: Result<KeychainResponse, any Error>
        do {
            let envelope = try RequestCodec.decode(frame.payload)
            outcome = .success(
                try perform(envelope, uid: peer.uid, caller: caller, connection: connection, id: frame.requestID))
        } catch {
            outcome = .failure(error)
        }
        var payload: [UInt8]
        defer { wipe(&payload) }
        do {
            payload = try ResponseCodec.encode(outcome)
        } catch {
            payload = (try? ResponseCodec.encode(.failure(error))) ?? []
        }
        if payload.count > connection.largestAnswer {
            let refusal = KeychainError.answerTooLarge(
                size: payload.count, limit: connection.largestAnswer, inParts: connection.takesAnswersInParts)
            wipe(&payload)
            payload = (try? ResponseCodec.encode(.failure(refusal))) ?? []
        }
        // An answer larger than the socket's buffers is held until its client has read it, however slowly: counted
        // until its last frame is sent (``DaemonConnection/answerSent()``).
        if payload.count > AnswerBudget.smallestHeld, !connection.holdAnswer(payload.count, uid: peer.uid) {
            let size = payload.count
            wipe(&payload)
            payload = (try? ResponseCodec.encode(.failure(KeychainError.answersHeld(size: size)))) ?? []
        }
        return connection.sendingParts(of: payload, requestID: frame.requestID)
    }

    package func connectionClosed(_ connection: DaemonConnection, peer: PeerIdentity) {
        let open = connection.openContexts
        guard !open.isEmpty, let keychain = try? keychains.keychain(for: peer.uid) else { return }
        for id in open { keychain.authenticationContexts.forget(id) }
    }

    package func shutDown() {
        enclaveKeys.forgetLoadedKeys()
        keychains.closeAll()
    }

    /// The asker's keychain's lock state (opening it, as its first request would), what its group committer has
    /// done, how much of the daemon's memory is locked (the class keys), and whether a core file could take it.
    package func statusFields(peer: PeerIdentity) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        if let keychain = try? keychains.keychain(for: peer.uid) {
            fields.append(("lock-state", (try? keychain.lockState.rawValue) ?? "unavailable"))
            let committed = keychain.committedGroups
            fields.append(("groups-committed", String(committed.groups)))
            fields.append(("writes-committed", String(committed.writes)))
        }
        if let locked = LockedMemory.lockedKilobytes() { fields.append(("locked-memory-kb", String(locked))) }
        fields.append(("dumpable", Privileges.keepsMemoryPrivate ? "no" : "yes"))
        return fields + (owner?.statusFields(peer: peer) ?? [])
    }

    private func perform(
        _ envelope: RequestCodec.Envelope, uid: UInt32, caller identity: CallerIdentity, connection: DaemonConnection,
        id: UInt64
    ) throws -> KeychainResponse {
        try Self.refuseUnserved(envelope.request, owner: connection.actsAsOwner)
        if let answer = try Self.answerForContext(of: envelope, on: connection) { return answer }
        let keychain = try connection.keychain { try keychains.keychain(for: uid) }
        let service = InProcessKeychainService(keychain, enclaveKeys: enclaveKeys)
        let acting = owner?.identity(for: connection, caller: identity) ?? identity
        let caller = Caller(identity: acting, authenticationContext: envelope.context)
        let route = DaemonPrompter.Route(connection: connection, requestID: id, uid: uid)
        let response = try DaemonPrompter.$route.withValue(route) {
            try SecureEnclaveSetting.$override.withValue(enclaveSetting) {
                try service.perform(envelope.request, as: caller)
            }
        }
        switch (envelope.request, response) {
        case (.createAuthenticationContext, .authenticationContext(let created)): connection.noteContext(created)
        case (.forgetAuthenticationContext, _):
            if let forgotten = envelope.context { connection.forgetContext(forgotten) }
        default: break
        }
        return Self.understood(response, to: envelope.request, byProtocol: connection.clientProtocolVersion)
    }

    /// `response` as a client of `version` understands it: before protocol 4 a passcode removal was answered
    /// done, and such a client takes nothing else (it would report a failure of a removal that happened).
    static func understood(_ response: KeychainResponse, to request: KeychainRequest, byProtocol version: Int)
        -> KeychainResponse
    {
        if case .removePasscode = request, case .deleted = response, version < 4 { return .done }
        return response
    }

    /// Backups hold every access group's items, so only a connection with owner rights makes or restores one; and
    /// they cross the socket as bytes: a path would be opened with the daemon's rights, not the client's. The
    /// keychain's protection (its passcode, the grace period after a lock, a simulated restart) and the simulated
    /// sensors guard every app's items, so only the owner changes them: on a device no app sets the passcode or
    /// touches the sensor. Any app may still lock the keychain, unlock it with the passcode, and read its state.
    private static func refuseUnserved(_ request: KeychainRequest, owner: Bool) throws {
        if let change = protectionChange(request), !owner {
            throw KeychainError.missingEntitlement.because(
                "\(change) changes what guards every app's items: only the keychain's owner does it (security "
                    + "claims owner rights after authenticating the user)")
        }
        switch request {
        case .backup, .restore:
            throw KeychainError.unimplemented.because(
                "keychaind opens no path a client names: a client of this release sends the backup's bytes instead")
        case .backupArchive, .restoreArchive:
            guard owner else {
                throw KeychainError.missingEntitlement.because(
                    "a backup holds the items of every access group: only the keychain's owner makes or restores one "
                        + "(security claims owner rights after authenticating the user)")
            }
        default: break
        }
    }

    /// The most authentication contexts one connection holds at once: far more than a process keeps `LAContext`s,
    /// and a bound on the daemon memory a client can take with them.
    static let contextLimit = 1024

    /// A context is its connection's: an id another connection created (of this uid or another) is unknown here,
    /// as one that never existed is, and a connection holds at most ``contextLimit`` of them. The answer when the
    /// request is not to run (forgetting an unknown context is done), or nil.
    private static func answerForContext(
        of envelope: RequestCodec.Envelope, on connection: DaemonConnection
    ) throws -> KeychainResponse? {
        if let context = envelope.context, !connection.holdsContext(context) {
            // As the engine answers for a context that is gone: forgetting it is done (another connection's
            // stays), an evaluation is on an invalidated LAContext.
            switch envelope.request {
            case .forgetAuthenticationContext: return .done
            case .canEvaluatePolicy, .evaluatePolicy, .evaluateAccessControl: throw AuthenticationFailure.invalidContext
            default: throw KeychainError.param.because("no authentication context of this connection has that id")
            }
        }
        if case .createAuthenticationContext = envelope.request, connection.openContexts.count >= contextLimit {
            throw KeychainError.allocate.because(
                "a connection holds at most \(contextLimit) authentication contexts: release LAContexts no longer used")
        }
        return nil
    }

    /// What `request` changes of the keychain's protection, for a refusal; nil when it changes none.
    private static func protectionChange(_ request: KeychainRequest) -> String? {
        switch request {
        case .setPasscode: "setting the passcode"
        case .removePasscode: "removing the passcode"
        case .setGracePeriod: "setting the grace period"
        case .simulateRestart: "a simulated restart"
        case .simulatedBiometry: "enrolling or scripting the simulated biometry sensor"
        case .simulatedCompanion(let action) where action != .status: "pairing or scripting the simulated companion"
        default: nil
        }
    }
}
