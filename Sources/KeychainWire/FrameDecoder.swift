/// Cuts frames out of a byte stream as it arrives. A header is judged as soon as its bytes are in: a bad magic,
/// version or flags, or a length over the limit, fails before the payload is read.
///
/// Its buffer is kept between frames and read into in place (``receive(upTo:_:)``), so a connection's requests
/// cost no allocation for their bytes beyond each frame's payload.
package struct FrameDecoder {
    /// The largest payload accepted, in bytes.
    package let payloadLimit: Int
    /// Bytes received and not yet cut into frames are `buffer[start..<end]`; past `end` is room to read into.
    private var buffer: [UInt8] = []
    private var start = 0
    private var end = 0

    /// A buffer grown past this for a large frame is given back once it is empty.
    private static let keptCapacity = 256 * 1024

    package init(payloadLimit: Int) { self.payloadLimit = payloadLimit }

    /// Bytes received and not yet part of a whole frame.
    package var bufferedCount: Int { end - start }

    package mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        makeRoom(for: bytes.count)
        buffer.withUnsafeMutableBytes { target in
            bytes.withUnsafeBytes { source in
                UnsafeMutableRawBufferPointer(rebasing: target[end..<(end + source.count)]).copyMemory(from: source)
            }
        }
        end += bytes.count
    }

    /// Lets `read` put up to `limit` bytes straight into the buffer; it returns how many it put (zero or less:
    /// none). Returns what `read` returned.
    package mutating func receive(upTo limit: Int, _ read: (UnsafeMutableRawBufferPointer) -> Int) -> Int {
        let limit = max(1, limit)
        makeRoom(for: limit)
        let count = buffer.withUnsafeMutableBytes { read(UnsafeMutableRawBufferPointer(rebasing: $0[end..<(end + limit)])) }
        if count > 0 { end += min(count, limit) }
        return count
    }

    /// Makes `count` bytes of room after `end`: the unread bytes move to the front, and the buffer grows only when
    /// that is not enough.
    private mutating func makeRoom(for count: Int) {
        if start == end {
            start = 0
            end = 0
            if buffer.count > Self.keptCapacity { buffer = [] }
        }
        if buffer.count - end >= count { return }
        if start > 0 {
            let unread = end - start
            buffer.withUnsafeMutableBytes { raw in
                guard let base = raw.baseAddress else { return }
                base.copyMemory(from: base + start, byteCount: unread)
            }
            start = 0
            end = unread
        }
        if buffer.count - end < count {
            buffer.append(contentsOf: repeatElement(0, count: count - (buffer.count - end)))
        }
    }

    /// The next whole frame, or nil until more bytes arrive.
    package mutating func next() throws(FrameError) -> Frame? {
        let available = buffer[start..<end]
        try Self.checkPrefix(available)
        guard available.count >= Frame.headerSize else { return nil }
        var reader = ByteReader(available)
        do {
            try reader.skip(Frame.magic.count)
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
