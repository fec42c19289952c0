/// Cuts frames out of a byte stream as it arrives. A header is judged as soon as its bytes are in: a bad magic,
/// version or flags, or a length over the limit, fails before the payload is read.
///
/// One decoder belongs to one connection and dies with it (a reconnection makes a new one, so no byte of a
/// broken connection is ever read as part of the next). Its buffer is kept between frames and read into in place
/// (``receive(upTo:_:)``): a request costs no buffer of its own. A frame's bytes are wiped from the buffer once
/// the frame is cut out, and a buffer that is replaced is wiped first.
package struct FrameDecoder {
    /// The largest payload accepted, in bytes.
    package let payloadLimit: Int
    /// Bytes received and not yet cut into frames are `buffer[start..<end]`; after `end` is room to read into.
    private var buffer: [UInt8] = []
    private var start = 0
    private var end = 0

    /// How much one read asks for at most, unless a frame being received needs more.
    package static let readSize = 64 * 1024
    /// A buffer grown past this for a large frame is given up once it is empty.
    private static let keptCapacity = 256 * 1024

    package init(payloadLimit: Int) { self.payloadLimit = payloadLimit }

    /// Bytes received and not yet part of a whole frame.
    package var bufferedCount: Int { end - start }

    package mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        _ = receive(upTo: bytes.count) { room in
            bytes.withUnsafeBytes { room.copyMemory(from: $0) }
            return bytes.count
        }
    }

    /// Lets `read` put up to `limit` bytes straight into the buffer and return how many it put (zero or less:
    /// none, the stream ended or failed). Returns what `read` returned.
    package mutating func receive(
        upTo limit: Int = FrameDecoder.readSize, _ read: (UnsafeMutableRawBufferPointer) -> Int
    ) -> Int {
        let limit = max(1, limit)
        makeRoom(for: limit)
        let room = end..<(end + limit)
        let count = buffer.withUnsafeMutableBytes { read(UnsafeMutableRawBufferPointer(rebasing: $0[room])) }
        if count > 0 { end += min(count, limit) }
        return count
    }

    /// The next whole frame, or nil until more bytes arrive.
    package mutating func next() throws(FrameError) -> Frame? {
        guard let frame = try peek() else { return nil }
        consume(Frame.headerSize + frame.payload.count)
        return frame
    }

    /// The whole frame at the front, not yet cut out. Apart from ``next()`` so that its view of the buffer is
    /// gone before the buffer is written: a buffer still shared would be copied whole.
    private func peek() throws(FrameError) -> Frame? {
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
            return Frame(kind: kind, requestID: requestID, payload: try reader.bytes(Int(length)))
        } catch let error as FrameError {
            throw error
        } catch {
            return nil  // a shortfall: the header was whole, so only the payload can be missing
        }
    }

    /// Wipes the bytes of a frame just cut out (a payload may hold a secret), and starts over at the front of the
    /// buffer when nothing is left.
    private mutating func consume(_ count: Int) {
        let consumed = start..<(start + count)
        buffer.withUnsafeMutableBytes { raw in
            _ = UnsafeMutableRawBufferPointer(rebasing: raw[consumed]).initializeMemory(as: UInt8.self, repeating: 0)
        }
        start += count
        if start == end {
            start = 0
            end = 0
            if buffer.count > Self.keptCapacity { buffer = [] }
        }
    }

    /// Makes `count` bytes of room after `end`: the unread bytes move to the front, and only when that is not
    /// enough is a larger buffer made (the old one wiped, since it may hold part of a secret).
    private mutating func makeRoom(for count: Int) {
        if buffer.count - end >= count { return }
        let unread = end - start
        if buffer.count - unread >= count {
            buffer.withUnsafeMutableBytes { raw in
                guard let base = raw.baseAddress else { return }
                base.copyMemory(from: base + start, byteCount: unread)
                _ = (base + unread).initializeMemory(as: UInt8.self, repeating: 0, count: end - unread)
            }
        } else {
            // Doubled (up to the frame's whole size once its header is in): grown by one read at a time, a
            // 20 MiB frame was copied and wiped 320 times over. Not made whole at the header: a client would then
            // cost the daemon 20 MiB for a 20-byte header.
            let needed = unread + max(count, Self.readSize)
            let doubled = min(2 * buffer.count, pendingFrameSize ?? Int.max)
            var larger = [UInt8](repeating: 0, count: max(needed, doubled))
            larger.withUnsafeMutableBytes { target in
                buffer.withUnsafeMutableBytes { source in
                    guard let from = source.baseAddress, let to = target.baseAddress else { return }
                    to.copyMemory(from: from + start, byteCount: unread)
                    _ = source.initializeMemory(as: UInt8.self, repeating: 0)
                }
            }
            buffer = larger
        }
        start = 0
        end = unread
    }

    /// The size of the frame at the front, header included, once its header is in and its length is within the
    /// limit.
    private var pendingFrameSize: Int? {
        guard end - start >= Frame.headerSize else { return nil }
        var reader = ByteReader(buffer[(start + Frame.headerSize - 4)..<(start + Frame.headerSize)])
        guard let length = try? reader.uint32(), Int(length) <= payloadLimit else { return nil }
        return Frame.headerSize + Int(length)
    }

    /// How many bytes the buffer holds in all, read or not (for tests of its growth).
    package var capacity: Int { buffer.count }

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
