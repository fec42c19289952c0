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
    /// What would the policy make of the executable at this path (UTF-8 payload)? Answered by
    /// ``executableIdentity`` (a ``FieldList``), as `security apps show PATH` prints it.
    package static let explainExecutable = FrameKind(rawValue: 0x0007)
    package static let executableIdentity = FrameKind(rawValue: 0x0008)
    /// The policy's rules, answered by ``policyRules`` (a ``FieldList``, a `rule` field each), for
    /// `security apps list`.
    package static let listPolicy = FrameKind(rawValue: 0x0009)
    package static let policyRules = FrameKind(rawValue: 0x000A)
    /// Protocol 2: the client's newest protocol and sizes (a ``ProtocolHello``), answered by ``helloReply`` with
    /// the daemon's. A daemon of protocol 1 answers it with ``error`` (errSecUnimplemented).
    package static let hello = FrameKind(rawValue: 0x000B)
    package static let helloReply = FrameKind(rawValue: 0x000C)
    /// A refusal or failure: an OSStatus and a reason (``ErrorReply``).
    package static let error = FrameKind(rawValue: 0x007F)
    /// The first kind the daemon passes to its handler.
    package static let firstHandlerKind: UInt16 = 0x0100
    /// One of the engine's requests (`KeychainRequest` in its typed encoding), answered by ``response``.
    package static let request = FrameKind(rawValue: 0x0100)
    /// The answer to a ``request``: a `KeychainResponse` or the error it failed with.
    package static let response = FrameKind(rawValue: 0x0101)
    /// A question the daemon asks the client's user while a request runs (the request's id), answered by
    /// ``promptAnswer``: the client relays what the user typed, the daemon judges it.
    package static let prompt = FrameKind(rawValue: 0x0102)
    package static let promptAnswer = FrameKind(rawValue: 0x0103)
    /// Owner rights for this connection (docs/keychaind.md, "Owner rights"), answered by ``ownerRights`` after
    /// the daemon has authenticated the client's user itself (its questions come as ``prompt`` frames).
    package static let claimOwner = FrameKind(rawValue: 0x0104)
    package static let ownerRights = FrameKind(rawValue: 0x0105)
    /// Protocol 2: a piece of an answer too large for one frame (an ``AnswerPart``), sent before the ``response``
    /// that carries the last piece; only to a client that said ``hello`` with protocol 2 or later.
    package static let responsePart = FrameKind(rawValue: 0x0106)

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
        case .explainExecutable: "explain-executable"
        case .executableIdentity: "executable-identity"
        case .listPolicy: "list-policy"
        case .policyRules: "policy-rules"
        case .hello: "hello"
        case .helloReply: "hello-reply"
        case .error: "error"
        case .request: "request"
        case .response: "response"
        case .prompt: "prompt"
        case .promptAnswer: "prompt-answer"
        case .claimOwner: "claim-owner"
        case .ownerRights: "owner-rights"
        case .responsePart: "response-part"
        default: "kind 0x" + String(rawValue, radix: 16)
        }
    }
}
