/// Cuts frames out of a byte stream as it arrives. A header is judged as soon as its bytes are in: a bad magic,
/// version or flags, or a length over the limit, fails before the payload is read.
package struct FrameDecoder {
    /// The largest payload accepted, in bytes.
    package let payloadLimit: Int
    private var buffer: [UInt8] = []
    private var start = 0

    package init(payloadLimit: Int) { self.payloadLimit = payloadLimit }

    /// Bytes received and not yet part of a whole frame.
    package var bufferedCount: Int { buffer.count - start }

    package mutating func append(_ bytes: [UInt8]) {
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer += bytes
    }

    /// The next whole frame, or nil until more bytes arrive.
    package mutating func next() throws(FrameError) -> Frame? {
        let available = buffer[start...]
        try Self.checkPrefix(available)
        guard available.count >= Frame.headerSize else { return nil }
        var reader = ByteReader(available)
        do {
            _ = try reader.bytes(Frame.magic.count)
            let version = try reader.uint8()
            let flags = try reader.uint8()
            guard version == Frame.version else { throw FrameError.unsupportedVersion(version) }
            guard flags == 0 else { throw FrameError.reservedFlags(flags) }
            let kind = FrameKind(rawValue: try reader.uint16())
            let requestID = try reader.uint64()
            let length = try reader.uint32()
            guard Int(length) <= payloadLimit else { throw FrameError.tooLarge(length: length, limit: payloadLimit) }
            guard reader.remaining >= Int(length) else { return nil }
            let payload = try reader.bytes(Int(length))
            start += Frame.headerSize + Int(length)
            return Frame(kind: kind, requestID: requestID, payload: payload)
        } catch let error as FrameError {
            throw error
        } catch {
            return nil  // a shortfall: the header was whole, so only the payload can be missing
        }
    }

    /// Fails as soon as the first bytes differ from the magic, before a whole header is in.
    private static func checkPrefix(_ bytes: ArraySlice<UInt8>) throws(FrameError) {
        for (offset, byte) in bytes.prefix(Frame.magic.count).enumerated() where byte != Frame.magic[offset] {
            throw FrameError.badMagic
        }
    }

    /// Every frame in `bytes`, and the error that stopped the decoding, if any (leftover bytes of an unfinished
    /// frame are not an error).
    package static func decodeAll(_ bytes: [UInt8], payloadLimit: Int) -> (frames: [Frame], error: FrameError?) {
        var decoder = FrameDecoder(payloadLimit: payloadLimit)
        decoder.append(bytes)
        var frames: [Frame] = []
        do {
            while let frame = try decoder.next() { frames.append(frame) }
            return (frames, nil)
        } catch {
            return (frames, error)
        }
    }
}
