/// The payload of an ``FrameKind/error`` frame: an OSStatus and a reason a person can read (never a secret).
package struct ErrorReply: Hashable, Sendable {
    package let status: Int32
    package let reason: String

    package init(status: Int32, reason: String) {
        self.status = status
        self.reason = reason
    }

    package func frame(requestID: UInt64) -> Frame {
        var writer = ByteWriter()
        writer.uint32(UInt32(bitPattern: status))
        writer.lengthPrefixed(Array(reason.utf8))
        return Frame(kind: .error, requestID: requestID, payload: writer.bytes)
    }

    package static func decode(_ payload: [UInt8]) throws(ByteReader.Shortfall) -> ErrorReply {
        var reader = ByteReader(payload)
        let status = Int32(bitPattern: try reader.uint32(reading: "the status"))
        let reason = String(decoding: try reader.lengthPrefixed(reading: "the reason"), as: UTF8.self)
        return ErrorReply(status: status, reason: reason)
    }

    // The statuses the daemon itself answers with (SecBase.h values, as in KeychainCore's SecurityStatus).
    /// errSecUnimplemented: a kind no handler serves yet.
    package static let unimplemented: Int32 = -4
    /// errSecParam: a malformed hello.
    package static let param: Int32 = -50
    /// errSecNotAvailable: the daemon cannot take this connection (a limit is reached).
    package static let notAvailable: Int32 = -25291
    /// errSecMissingEntitlement: the caller is refused (policy, preloaded library, unknown identity).
    package static let missingEntitlement: Int32 = -34018
}
