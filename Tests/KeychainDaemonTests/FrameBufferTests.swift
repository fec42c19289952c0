import DaemonSystem
import Foundation
import KeychainCore
import KeychainRequests
import KeychainWire
import SystemCalls
import Testing

/// The frame decoder's buffer is kept between reads and read into in place: frames that share a read, frames
/// split across reads, frames larger than one read, and a connection that breaks in the middle of an answer.
@Suite struct FrameBufferTests {
    private let limit = 1 << 20

    /// Feeds `chunks` to `decoder` one read each, cutting out the frames after each read.
    private func feed(_ chunks: [[UInt8]], to decoder: inout FrameDecoder) throws -> [Frame] {
        var frames: [Frame] = []
        for chunk in chunks {
            let count = decoder.receive { room in
                #expect(room.count >= chunk.count)
                chunk.withUnsafeBytes { room.copyMemory(from: $0) }
                return chunk.count
            }
            #expect(count == chunk.count)
            while let frame = try decoder.next() { frames.append(frame) }
        }
        return frames
    }

    @Test func twoFramesInOneReadAreCutOneByOne() throws {
        let first = Frame(kind: .ping, requestID: 1, payload: [1, 2, 3])
        let second = Frame(kind: .status, requestID: 2, payload: Array(repeating: 9, count: 40))
        var decoder = FrameDecoder(payloadLimit: limit)
        #expect(try feed([first.encoded() + second.encoded()], to: &decoder) == [first, second])
        #expect(decoder.bufferedCount == 0)
    }

    @Test func aFrameSplitAcrossReadsIsWholeOnlyWithItsLastByte() throws {
        let frames = (1...3).map { Frame(kind: .ping, requestID: UInt64($0), payload: Array(repeating: 5, count: 30)) }
        let stream = frames.flatMap { $0.encoded() }
        // Cuts inside a header, inside a payload, and one that leaves the next frame's start behind.
        let cuts = [7, 33, 75, stream.count]
        var chunks: [[UInt8]] = []
        var from = 0
        for cut in cuts {
            chunks.append(Array(stream[from..<cut]))
            from = cut
        }
        var decoder = FrameDecoder(payloadLimit: limit)
        var seen: [Int] = []
        var received: [Frame] = []
        for chunk in chunks {
            received += try feed([chunk], to: &decoder)
            seen.append(received.count)
        }
        #expect(seen == [0, 0, 1, 3])
        #expect(received == frames)
        #expect(decoder.bufferedCount == 0)
    }

    @Test func aFrameLargerThanOneReadGrowsTheBufferAndComesOutWhole() throws {
        let large = Frame(kind: .response, requestID: 9, payload: (0..<300_000).map { UInt8(truncatingIfNeeded: $0) })
        let bytes = large.encoded()
        var chunks: [[UInt8]] = []
        var from = 0
        while from < bytes.count {
            let to = min(bytes.count, from + FrameDecoder.readSize)
            chunks.append(Array(bytes[from..<to]))
            from = to
        }
        var decoder = FrameDecoder(payloadLimit: limit)
        let small = Frame(kind: .ping, requestID: 10, payload: [1])
        #expect(try feed(chunks + [small.encoded()], to: &decoder) == [large, small])
    }

    /// A 20 MiB frame arriving a read at a time: the buffer was grown by one read each time (320 copies of all
    /// that had arrived, quadratic in the frame's size); it now doubles, up to the frame's size, never more.
    @Test func aTwentyMiBFrameGrowsTheBufferAFewTimesAndNoLargerThanTheFrame() throws {
        let size = 20 << 20
        let header = Frame(kind: .request, requestID: 1, payload: []).encoded()
        var decoder = FrameDecoder(payloadLimit: size)
        var stream = header
        stream.replaceSubrange((header.count - 4)..., with: withUnsafeBytes(of: UInt32(size).bigEndian, Array.init))
        stream += Array(repeating: 7, count: size)
        var capacities: [Int] = []
        var from = 0
        var frames: [Frame] = []
        while from < stream.count {
            let got = decoder.receive { room in
                let count = min(room.count, stream.count - from)
                stream.withUnsafeBytes {
                    room.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[from..<(from + count)]))
                }
                return count
            }
            from += got
            if capacities.last != decoder.capacity { capacities.append(decoder.capacity) }
            while let frame = try decoder.next() { frames.append(frame) }
        }
        #expect(frames.count == 1 && frames.first?.payload.count == size)
        #expect(capacities.count <= 12, "the buffer was replaced \(capacities.count) times")
        #expect(capacities.max() ?? 0 <= Frame.headerSize + size + FrameDecoder.readSize)
    }

    @Test func aReadNeverSeesTheBytesOfAFrameAlreadyCutOut() throws {
        let secret = Frame(kind: .response, requestID: 1, payload: Array(repeating: 0xA5, count: 64))
        var decoder = FrameDecoder(payloadLimit: limit)
        #expect(try feed([secret.encoded()], to: &decoder) == [secret])
        var leftover: [UInt8] = []
        _ = decoder.receive { room in
            leftover = Array(room.prefix(Frame.headerSize + 64))
            return 0
        }
        #expect(leftover.count == Frame.headerSize + 64)
        #expect(leftover.allSatisfy { $0 == 0 })
    }

    /// A fake daemon breaks the connection halfway through an answer; the client's next request goes over a new
    /// connection and must read only that connection's bytes.
    @Test func halfAnAnswerOfABrokenConnectionIsNotReadAsPartOfTheNext() throws {
        let path = "/tmp/kd-buffer-\(UUID().uuidString.prefix(8)).sock"
        let listener = try UnixListener(path: path)
        defer { listener.shutDown() }
        @Sendable func answer(_ count: Int, requestID: UInt64) throws -> [UInt8] {
            Frame(
                kind: .response, requestID: requestID,
                payload: try ResponseCodec.encode(.success(.deleted(count: count)))
            ).encoded()
        }
        let limit = limit
        /// The next request, a hello answered first as a daemon of protocol 1 does (errSecUnimplemented).
        @Sendable func request(on stream: SocketStream) -> Frame? {
            var decoder = FrameDecoder(payloadLimit: limit)
            var spin = AdaptiveSpin.never
            while true {
                if let frame = try? decoder.next() {
                    guard frame.kind == .hello else { return frame }
                    let refusal = ErrorReply(status: ErrorReply.unimplemented, reason: "protocol 1")
                    _ = stream.write(refusal.frame(requestID: frame.requestID).encoded())
                    continue
                }
                var outcome = SocketStream.Received.endOfStream
                _ = decoder.receive { room in
                    outcome = stream.receive(into: room, spinning: &spin)
                    if case .count(let count) = outcome { return count }
                    return 0
                }
                guard case .count = outcome else { return nil }
            }
        }
        let server = Thread {
            guard let first = listener.accept() else { return }
            let broken = SocketStream(descriptor: first)
            if let asked = request(on: broken), let bytes = try? answer(1, requestID: asked.requestID) {
                _ = broken.write(Array(bytes.prefix(bytes.count - 3)))
            }
            broken.close()
            guard let second = listener.accept() else { return }
            let whole = SocketStream(descriptor: second)
            if let asked = request(on: whole), let bytes = try? answer(7, requestID: asked.requestID) {
                _ = whole.write(bytes)
            }
            _ = request(on: whole)  // until the client goes
            whole.close()
        }
        server.start()
        let service = DaemonKeychainService(socketPath: path)
        let caller = Caller(identity: CallerIdentity(applicationIdentifier: nil, accessGroups: []))
        let query = ItemQuery(itemClass: .genericPassword)
        #expect(throws: KeychainError.notAvailable) { _ = try service.perform(.delete(query), as: caller) }
        guard case .deleted(let count) = try service.perform(.delete(query), as: caller) else {
            Issue.record("the second answer is not a delete's")
            return
        }
        #expect(count == 7)
    }
}
