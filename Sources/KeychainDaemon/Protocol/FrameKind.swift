/// What a frame asks or answers. Kinds below 0x100 belong to the daemon itself; the engine's typed
/// requests and results use 0x100 and above, and the daemon hands those to its ``DaemonHandler``.
package struct FrameKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package let rawValue: UInt16

    package init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Are you there? Answered by ``pong`` with the same payload.
    package static let ping = FrameKind(rawValue: 0x0001)
    package static let pong = FrameKind(rawValue: 0x0002)
    /// The daemon's version, uptime, clients and queue depth, answered by ``statusReply`` (``DaemonStatus``).
    package static let status = FrameKind(rawValue: 0x0003)
    package static let statusReply = FrameKind(rawValue: 0x0004)
    /// Who does the daemon take me for? Answered by ``identity`` (a ``FieldList`` of the peer's identity).
    package static let identify = FrameKind(rawValue: 0x0005)
    package static let identity = FrameKind(rawValue: 0x0006)
    /// A refusal or failure: an OSStatus and a reason (``ErrorReply``).
    package static let error = FrameKind(rawValue: 0x007F)
    /// The first kind the daemon passes to its handler.
    package static let firstHandlerKind: UInt16 = 0x0100

    /// Whether the daemon answers this kind itself.
    package var isBuiltIn: Bool { rawValue < Self.firstHandlerKind }

    package var description: String {
        switch self {
        case .ping: "ping"
        case .pong: "pong"
        case .status: "status"
        case .statusReply: "status-reply"
        case .identify: "identify"
        case .identity: "identity"
        case .error: "error"
        default: "kind 0x" + String(rawValue, radix: 16)
        }
    }
}
