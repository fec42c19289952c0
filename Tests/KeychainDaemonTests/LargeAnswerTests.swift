import Foundation
import KeychainCore
import KeychainRequests
import KeychainTestSupport
import KeychainWire
import Testing

/// Answers larger than one frame (protocol 2): sent in parts and put back together, bounded as a whole; requests
/// over the daemon's limit refused by the client before they are sent. The daemon runs with a 4 KiB message
/// limit, so a few items of 1,000-byte secrets make an answer of several frames.
@Suite(.serialized) struct LargeAnswerTests {
    static let secretSize = 1000

    static func fill(_ client: KeychainClient, count: Int) throws {
        for index in 0..<count {
            let secret = Array(repeating: UInt8(truncatingIfNeeded: index), count: Self.secretSize)
            try client.add(
                NewItem(
                    itemClass: .genericPassword,
                    attributes: [.service: .string("bulk"), .account: .string("item-\(index)")], data: secret))
        }
    }

    static let everything = ItemQuery(
        itemClass: .genericPassword, attributes: [.service: .string("bulk")], limit: .all,
        returns: [.data, .attributes])

    @Test func anAnswerLargerThanOneFrameArrivesInPartsAndWhole() throws {
        let daemon = try DaemonProcess(["--max-message", "4096"])
        let client = KeychainClient(service: DaemonKeychainService(socketPath: daemon.socketPath))
        try Self.fill(client, count: 20)
        let found = try client.copyMatching(Self.everything)
        #expect(found.count == 20)
        for result in found {
            guard case .string(let account) = result.attributes?[.account] else {
                Issue.record("an item without its account")
                continue
            }
            let index = try #require(Int(account.dropFirst("item-".count)))
            #expect(result.data?.bytes == Array(repeating: UInt8(truncatingIfNeeded: index), count: Self.secretSize))
        }
        // On the wire: several response-part frames, none over the limit, then the response.
        let raw = try daemon.connect()
        #expect(try raw.negotiate() == nil)
        #expect(raw.requestLimit == 4096)
        let request = Frame(
            kind: .request, requestID: raw.takeRequestID(),
            payload: try RequestCodec.encode(.search(Self.everything), context: nil))
        #expect(raw.send(request))
        var parts = 0
        while true {
            let frame = try raw.receive()
            #expect(frame.payload.count <= 4096)
            #expect(frame.requestID == request.requestID)
            if frame.kind == .response { break }
            #expect(frame.kind == .responsePart)
            parts += 1
        }
        #expect(parts >= 4)
        // A client that takes smaller frames than the daemon gets parts of its size, and the whole answer.
        let narrow = try DaemonClient(socketPath: daemon.socketPath, payloadLimit: 2048)
        #expect(try narrow.negotiate() == nil)
        let again = Frame(kind: .request, requestID: narrow.takeRequestID(), payload: request.payload)
        #expect(narrow.send(again))
        let assembler = AnswerAssembler(limit: narrow.answerLimit)
        var answer = try narrow.receive()
        while answer.kind == .responsePart {
            #expect(answer.payload.count <= 2048)
            try assembler.add(partPayload: answer.payload)
            answer = try narrow.receive()
        }
        guard case .found(let report) = try ResponseCodec.decode(try assembler.finish(responsePayload: answer.payload))
        else {
            Issue.record("not a search result")
            return
        }
        #expect(report.results.count == 20)
    }

    @Test func anAnswerOverTheWholeBoundIsErrSecAllocateWithAReasonAndTheConnectionGoesOn() throws {
        let daemon = try DaemonProcess(["--max-message", "4096", "--max-answer", "16384"])
        let client = KeychainClient(service: DaemonKeychainService(socketPath: daemon.socketPath))
        try Self.fill(client, count: 24)
        var caught: KeychainError?
        do {
            _ = try client.copyMatching(Self.everything)
        } catch let error as KeychainError {
            caught = error
        }
        #expect(caught?.status == -108)
        #expect(caught?.reason?.contains("over keychaind's limit of 16384 bytes for one answer") == true)
        #expect(caught?.localizedReason(in: .japanese)?.contains("16384 バイト") == true)
        // The same connection serves the next request.
        let one = ItemQuery(
            itemClass: .genericPassword, attributes: [.service: .string("bulk"), .account: .string("item-3")],
            returns: [.data])
        #expect(try client.copyMatching(one).count == 1)
        #expect(!daemon.log.contains("connection closed"))
    }

    /// An answer larger than the socket's buffers stays in the daemon's memory until its client has read it: a
    /// uid holds at most `--max-answer` bytes of such answers at once, so a client that stops reading cannot make
    /// the daemon hold one answer per connection. Another request of the uid meanwhile is errSecAllocate, and is
    /// served once the first answer is read, or its client gone; in parts (protocol 2) or in one frame (1).
    @Test func answersHeldForAClientThatDoesNotReadAreBoundedPerUID() throws {
        let daemon = try DaemonProcess(["--max-message", "65536", "--max-answer", "7000000"])
        let client = KeychainClient(service: DaemonKeychainService(socketPath: daemon.socketPath))
        // Six million bytes in all: far more than a socket's buffers take.
        for index in 0..<120 {
            try client.add(
                NewItem(
                    itemClass: .genericPassword,
                    attributes: [.service: .string("bulk"), .account: .string("item-\(index)")],
                    data: Array(repeating: UInt8(truncatingIfNeeded: index), count: 50_000)))
        }
        let payload = try RequestCodec.encode(.search(Self.everything), context: nil)
        // Another request of 1.5 MB: with the six held, over the bound; alone, within it.
        var thirty = Self.everything
        thirty.limit = .count(30)
        func outcome() -> Int32 {
            do {
                return try client.copyMatching(thirty).count == 30 ? 0 : -1
            } catch let error as KeychainError {
                #expect(error.status != -108 || error.reason?.contains("still being read") == true)
                return error.status
            } catch {
                return -1
            }
        }
        /// Asks until the answer is `wanted`: the held answer counts once the daemon has built it.
        func eventually(_ wanted: Int32) -> Bool {
            for _ in 0..<100 {
                if outcome() == wanted { return true }
                usleep(50_000)
            }
            return false
        }
        let inParts = try daemon.connect()
        #expect(try inParts.negotiate() == nil)
        #expect(inParts.send(Frame(kind: .request, requestID: inParts.takeRequestID(), payload: payload)))
        #expect(try inParts.receive().kind == .responsePart)
        #expect(outcome() == -108)
        while try inParts.receive().kind != .response {}
        #expect(outcome() == 0)
        // Protocol 1: a ping answered first, so that the request comes after the daemon has identified the client.
        var inOneFrame: DaemonClient? = try daemon.connect()
        #expect(inOneFrame?.send(Frame(kind: .ping, requestID: 1, payload: [])) == true)
        #expect(try inOneFrame?.receive().kind == .pong)
        #expect(inOneFrame?.send(Frame(kind: .request, requestID: 2, payload: payload)) == true)
        #expect(eventually(-108), "a one-frame answer nobody reads is held too")
        inOneFrame = nil
        #expect(eventually(0), "given back once its client is gone")
    }

    @Test func aClientOfProtocolOneNeverSeesAPartAndGetsErrSecAllocateOverOneFrame() throws {
        let daemon = try DaemonProcess(["--max-message", "4096", "--max-answer", "16384"])
        let client = KeychainClient(service: DaemonKeychainService(socketPath: daemon.socketPath))
        try Self.fill(client, count: 12)
        // A client that never says hello is spoken to in protocol 1: one frame, however large (within the bound).
        let old = try daemon.connect()
        // Its first request waits for an answer, as the daemon serves no request sent before it identified the
        // process.
        #expect(try old.request(.ping).kind == .pong)
        let small = ItemQuery(
            itemClass: .genericPassword, attributes: [.service: .string("bulk")], limit: .all, returns: [.data])
        let answer = try old.request(.request, payload: try RequestCodec.encode(.search(small), context: nil))
        #expect(answer.kind == .response)
        #expect(answer.payload.count > 4096)
        guard case .found(let found) = try ResponseCodec.decode(answer.payload) else {
            Issue.record("not a search result")
            return
        }
        #expect(found.results.count == 12)
        for index in 12..<24 {
            try client.add(
                NewItem(
                    itemClass: .genericPassword,
                    attributes: [.service: .string("bulk"), .account: .string("item-\(index)")],
                    data: Array(repeating: 1, count: Self.secretSize)))
        }
        let over = try old.request(.request, payload: try RequestCodec.encode(.search(small), context: nil))
        #expect(over.kind == .response)
        #expect(throws: KeychainError.self) { try ResponseCodec.decode(over.payload) }
        do {
            _ = try ResponseCodec.decode(over.payload)
        } catch let error as KeychainError {
            #expect(error.status == -108)
            #expect(error.reason?.contains("more than a client of protocol 1 takes") == true)
        }
    }

    @Test func aRequestOverTheDaemonsLimitIsRefusedBeforeItIsSent() throws {
        let daemon = try DaemonProcess(["--max-message", "4096"])
        let client = KeychainClient(service: DaemonKeychainService(socketPath: daemon.socketPath))
        let huge = NewItem(
            itemClass: .genericPassword, attributes: [.service: .string("big"), .account: .string("a")],
            data: Array(repeating: 7, count: 8000))
        var caught: KeychainError?
        do {
            _ = try client.add(huge)
        } catch let error as KeychainError {
            caught = error
        }
        #expect(caught?.status == -50)
        #expect(caught?.reason?.contains("over keychaind's limit of 4096 bytes for one message") == true)
        // Nothing reached the daemon: no connection was closed for an oversized frame, and the client goes on.
        #expect(!daemon.log.contains("over the 4096-byte limit"))
        try client.add(DaemonEngineTests.item("small"))
        #expect(try client.copyMatching(DaemonEngineTests.query("small")).count == 1)
    }

    @Test func aValueAsLargeAsTheEngineTakesGoesThroughWithTheDefaultLimits() throws {
        let daemon = try DaemonProcess()
        let client = KeychainClient(service: DaemonKeychainService(socketPath: daemon.socketPath))
        // The engine's largest value (16 MiB), as an embedded keychain takes it (one byte more is the engine's own
        // errSecParam, ValidationTests): not refused here for the size of its message.
        var bytes = [UInt8](repeating: 0xA7, count: 16 << 20)
        for index in stride(from: 0, to: bytes.count, by: 4096) {
            bytes[index] = UInt8(truncatingIfNeeded: index >> 12)
        }
        try client.add(
            NewItem(
                itemClass: .genericPassword, attributes: [.service: .string("big"), .account: .string("blob")],
                data: bytes))
        var query = ItemQuery(
            itemClass: .genericPassword, attributes: [.service: .string("big"), .account: .string("blob")])
        query.returns = .data
        #expect(try client.copyMatching(query).first?.data?.bytes == bytes)
    }

    /// The listing that protocol 1 could not carry, at its real size and the default limits: opt-in
    /// (`KEYCHAIN_LARGE_LISTING=100000`), as the adds take minutes on a loaded machine.
    static let largeListing = ProcessInfo.processInfo.environment["KEYCHAIN_LARGE_LISTING"].flatMap { Int($0) }

    @Test(.enabled(if: largeListing != nil, "set KEYCHAIN_LARGE_LISTING to a number of items"))
    func aMatchAllListingLargerThanSixteenMiBWorksWithTheDefaultLimits() throws {
        let total = Self.largeListing ?? 0
        let daemon = try DaemonProcess()
        let socketPath = daemon.socketPath
        let writers = 16
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            let client = KeychainClient(service: DaemonKeychainService(socketPath: socketPath))
            for index in stride(from: writer, to: total, by: writers) {
                _ = try? client.add(
                    NewItem(
                        itemClass: .genericPassword,
                        attributes: [.service: .string("bulk"), .account: .string("account-\(index)")],
                        data: Array("secret-\(index)".utf8)))
            }
        }
        let everything = ItemQuery(itemClass: .genericPassword, limit: .all, returns: [.data, .attributes])
        let client = KeychainClient(service: DaemonKeychainService(socketPath: socketPath))
        #expect(try client.copyMatching(everything).count == total)
        let raw = try daemon.connect()
        #expect(try raw.negotiate() == nil)
        let request = Frame(
            kind: .request, requestID: raw.takeRequestID(),
            payload: try RequestCodec.encode(.search(everything), context: nil))
        #expect(raw.send(request))
        var size = 0
        var frame = try raw.receive()
        while true {
            #expect(frame.payload.count <= Frame.protocolOneLargestPayload)
            size += frame.payload.count
            if frame.kind == .response { break }
            frame = try raw.receive()
        }
        print("a match-all listing of \(total) items: \(size) bytes of frame payloads")
    }
}
