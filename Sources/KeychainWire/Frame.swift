import KeychainCrypto

/// One message of the daemon's protocol: a kind, the request id that pairs an answer with its request, and an
/// opaque payload (the typed encoding of each kind is the payload's business, not the framing's).
///
/// On the wire (all integers big-endian):
///
///     magic "KCHD" (4) | version 1 (1) | flags 0 (1) | kind (2) | request id (8) | payload length (4) | payload
package struct Frame: Hashable, Sendable {
    package let kind: FrameKind
    package let requestID: UInt64
    package private(set) var payload: [UInt8]

    package init(kind: FrameKind, requestID: UInt64, payload: [UInt8] = []) {
        self.kind = kind
        self.requestID = requestID
        self.payload = payload
    }

    /// Overwrites the payload with zeros, once the frame was sent or read: it may hold a secret (a passcode, an
    /// item's secret, an enclave key's auth value). Other copies of the same array are left alone.
    package mutating func wipePayload() { KeychainCrypto.wipe(&payload) }

    package static let magic: [UInt8] = Array("KCHD".utf8)
    /// The layout of the header, the same in every protocol: a peer that changes it changes this byte.
    package static let version: UInt8 = 1
    /// The newest protocol this code speaks: 2 adds ``FrameKind/hello`` and answers in parts
    /// (``FrameKind/responsePart``); 3 adds the Secure Enclave keys' requests, which a client sends only to a
    /// daemon that said 3 or more; 4 answers a passcode removal with the count of items it deleted (a client of 3
    /// or less is answered done, as before); 5 adds a context's `localizedReason` (`set-localized-reason`), which a
    /// client sends only to a daemon that said 5 or more. A connection speaks protocol 1 until its client says hello.
    package static let protocolVersion = 5
    /// The largest payload a client of protocol 1 accepts: the daemon sends such a client no larger frame.
    package static let protocolOneLargestPayload = 16 << 20
    /// The largest whole answer (all its parts) a client takes unless told otherwise: 1 GiB.
    package static let defaultLargestAnswer = 1 << 30
    package static let headerSize = 20

    /// The frame's bytes on the wire.
    package func encoded() -> [UInt8] { withEncodedBytes { Array($0) } }

    /// Runs `body` with the frame's bytes on the wire, laid out in a temporary buffer (on the stack when small,
    /// no array made) that is wiped afterwards: a payload may hold a secret.
    package func withEncodedBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeTemporaryAllocation(byteCount: Self.headerSize + payload.count, alignment: 8) { raw in
            defer { _ = raw.initializeMemory(as: UInt8.self, repeating: 0) }
            for (offset, byte) in Self.magic.enumerated() { raw[offset] = byte }
            raw[4] = Self.version
            raw[5] = 0
            raw.storeBytes(of: kind.rawValue.bigEndian, toByteOffset: 6, as: UInt16.self)
            raw.storeBytes(of: requestID.bigEndian, toByteOffset: 8, as: UInt64.self)
            raw.storeBytes(of: UInt32(truncatingIfNeeded: payload.count).bigEndian, toByteOffset: 16, as: UInt32.self)
            payload.withUnsafeBytes { source in
                UnsafeMutableRawBufferPointer(rebasing: raw[Self.headerSize...]).copyMemory(from: source)
            }
            return try body(UnsafeRawBufferPointer(raw))
        }
    }
}

extension Frame: CustomStringConvertible {
    /// Names the kind, id and size, never the payload (it may hold a secret).
    package var description: String { "\(kind) #\(requestID) (\(payload.count) bytes)" }
}
