import KeychainWire
import KeychainCore

/// Serves the frames the daemon does not answer itself (kinds from ``FrameKind/firstHandlerKind``): the engine's
/// typed requests. Called on the connection's thread, once per frame, in order; the answer carries the request's
/// id. `peer` is what the kernel says about the client, `caller` what the policy made of it.
package protocol DaemonHandler: Sendable {
    func respond(to frame: Frame, peer: PeerIdentity, caller: CallerIdentity) -> Frame
}

/// The handler until the engine is plugged in: every request is errSecUnimplemented.
package struct UnimplementedHandler: DaemonHandler {
    package init() {}

    package func respond(to frame: Frame, peer: PeerIdentity, caller: CallerIdentity) -> Frame {
        ErrorReply(status: ErrorReply.unimplemented, reason: "\(frame.kind) is not served yet")
            .frame(requestID: frame.requestID)
    }
}
