import KeychainCore
import KeychainWire

/// Serves the frames the daemon does not answer itself (kinds from ``FrameKind/firstHandlerKind``): the engine's
/// typed requests. Called on the connection's thread, once per frame, in order; the answer carries the request's
/// id. `peer` is what the kernel says about the client, `caller` what the policy made of it.
package protocol DaemonHandler: Sendable {
    func respond(to frame: Frame, peer: PeerIdentity, caller: CallerIdentity) -> Frame

    /// The same, with the connection, through which the handler may ask the client's user a question while the
    /// request runs. The default ignores the connection.
    func respond(to frame: Frame, peer: PeerIdentity, caller: CallerIdentity, connection: DaemonConnection) -> Frame

    /// The connection closed: what it held (authentication contexts) can go.
    func connectionClosed(_ connection: DaemonConnection, peer: PeerIdentity)

    /// The daemon stops: locks and wipes what it holds.
    func shutDown()

    /// Fields the handler adds to a `status-reply` for this asker (its keychain's lock state, the writes
    /// waiting); none by default.
    func statusFields(peer: PeerIdentity) -> [(name: String, value: String)]
}

extension DaemonHandler {
    package func respond(
        to frame: Frame, peer: PeerIdentity, caller: CallerIdentity, connection: DaemonConnection
    ) -> Frame {
        respond(to: frame, peer: peer, caller: caller)
    }

    package func connectionClosed(_ connection: DaemonConnection, peer: PeerIdentity) {}

    package func shutDown() {}

    package func statusFields(peer: PeerIdentity) -> [(name: String, value: String)] { [] }
}

/// A handler that serves nothing: every request is errSecUnimplemented.
package struct UnimplementedHandler: DaemonHandler {
    package init() {}

    package func respond(to frame: Frame, peer: PeerIdentity, caller: CallerIdentity) -> Frame {
        ErrorReply(status: ErrorReply.unimplemented, reason: "\(frame.kind) is not served yet")
            .frame(requestID: frame.requestID)
    }
}
