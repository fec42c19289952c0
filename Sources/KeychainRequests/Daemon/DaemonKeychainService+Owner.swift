import KeychainCore
import KeychainCrypto
import KeychainWire

extension DaemonKeychainService {
    /// What keychaind answered to a claim of owner rights.
    package struct OwnerGrant: Sendable, Equatable {
        /// 0 when granted; else errSecAuthFailed (-25293, a wrong password), errSecUserCanceled (-128),
        /// errSecInteractionNotAllowed (-25308, nobody could be asked) or errSecNotAvailable (-25291, the daemon
        /// has no system authentication).
        package let status: Int32
        /// Whether the daemon asked (false: the terminal session's earlier grant was reused).
        package let prompted: Bool
        /// When the session's grant ends (ISO 8601), if it is bound to one.
        package let until: String?
        package let reason: String

        package var isGranted: Bool { status == 0 }
    }

    /// Asks keychaind for owner rights on this process's connection (the `claim-owner` frame): the daemon
    /// authenticates this process's user with PAM, its questions asked through ``systemPrompter``, or reuses
    /// the terminal session's grant. On success every later request of this process runs as the owner of its
    /// uid's keychain, in all of its access groups, and a connection made again (the daemon restarted) claims
    /// them again before its first request.
    /// - Throws: `KeychainError.notAvailable` when the daemon cannot be reached.
    package func claimOwnerRights(message: String) throws -> OwnerGrant {
        let grant = try connection.withLock { held -> OwnerGrant in
            try claimOwnerRights(message: message, on: try connected(&held), held: &held)
        }
        if grant.isGranted { ownerClaim.withLock { $0 = message } }
        return grant
    }

    /// The claim on `client`, the connection `held` (under ``connection``'s lock).
    func claimOwnerRights(message: String, on client: DaemonClient, held: inout DaemonClient?) throws -> OwnerGrant {
        let claim = Frame(kind: .claimOwner, requestID: client.takeRequestID(), payload: Array(message.utf8))
        guard client.send(claim) else {
            held = nil
            throw unavailable("the connection broke before the claim was sent")
        }
        while true {
            let frame = try roundTrip(client, held: &held) { client throws(DaemonClient.Failure) in
                try client.receive()
            }
            switch frame.kind {
            case .prompt where frame.requestID == claim.requestID:
                var reply = try PromptCodec.encode(relay(frame.payload))
                defer { wipe(&reply) }
                guard client.send(Frame(kind: .promptAnswer, requestID: claim.requestID, payload: reply)) else {
                    held = nil
                    throw unavailable("the connection broke while answering a prompt")
                }
            case .ownerRights where frame.requestID == claim.requestID:
                let fields = try FieldList.decode(frame.payload)
                let granted = OwnerGrant(
                    status: fields["status"].flatMap { Int32($0) } ?? SecurityStatus.authFailed,
                    prompted: fields["prompted"] == "yes", until: fields["until"],
                    reason: fields["reason"] ?? "")
                if granted.isGranted {
                    let groups = (fields["access-groups"] ?? "").split(separator: " ").map(String.init)
                    identity.withLock {
                        $0 = CallerIdentity(
                            applicationIdentifier: $0?.applicationIdentifier, accessGroups: groups,
                            isOwner: true)
                    }
                }
                return granted
            case .error:
                held = nil
                let reply = try? ErrorReply.decode(frame.payload)
                return OwnerGrant(
                    status: reply?.status ?? SecurityStatus.notAvailable, prompted: false, until: nil,
                    reason: reply?.reason ?? "keychaind refused")
            default:
                held = nil
                throw unavailable("keychaind answered a claim with a \(frame.kind) frame")
            }
        }
    }

    /// On a new connection of a process that held owner rights: claims them again, so that a daemon restart does
    /// not quietly turn the owner into an app. Refused, the connection acts as the app the daemon takes this
    /// process for, and the identity is asked again.
    func reclaimOwnerRights(on client: DaemonClient, held: inout DaemonClient?) throws {
        guard let message = ownerClaim.withLock({ $0 }) else { return }
        if try !claimOwnerRights(message: message, on: client, held: &held).isGranted {
            ownerClaim.withLock { $0 = nil }
            identity.withLock { $0 = nil }
        }
    }
}
