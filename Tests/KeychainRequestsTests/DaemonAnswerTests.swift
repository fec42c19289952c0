import Foundation
import KeychainCore
import KeychainRequests
import KeychainWire
import SystemCalls
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The client's side of keychaind's protocol 2, against a scripted daemon on a socket of its own: a daemon of
/// protocol 1 is spoken to in protocol 1, answers in parts are put back together, and parts that announce too
/// much or do not add up fail with a precise status.
@Suite(.serialized) struct DaemonAnswerTests {
    /// A daemon that serves connections with `script`, one after the other, on a thread of its own.
    final class ScriptedDaemon: @unchecked Sendable {  // safe: the listener is immutable
        let path = "/tmp/kr-" + UUID().uuidString.prefix(8).lowercased()
        private let listener: Int32

        /// - Parameter script: serves one connection, given its number (0 for the first).
        init(connections: Int = 1, _ script: @escaping @Sendable (Peer, Int) -> Void) throws {
            listener = try SystemCalls.listeningUnixSocket(at: path, mode: 0o600, backlog: 4)
            let listener = listener
            Thread {
                for number in 0..<connections {
                    guard let descriptor = try? SystemCalls.accept(listener) else { return }
                    let peer = Peer(descriptor)
                    script(peer, number)
                    SystemCalls.close(descriptor)
                }
            }.start()
        }

        deinit {
            SystemCalls.close(listener)
            try? SystemCalls.unlink(path)
        }
    }

    /// The daemon's end of one connection.
    final class Peer: @unchecked Sendable {  // safe: used by the daemon's one thread
        private let descriptor: Int32
        private var decoder = FrameDecoder(payloadLimit: 1 << 20)

        init(_ descriptor: Int32) { self.descriptor = descriptor }

        func receive() -> Frame? {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                if let frame = try? decoder.next() { return frame }
                let received = buffer.withUnsafeMutableBytes { raw in
                    Result { () throws(SystemCallError) in try SystemCalls.receive(descriptor, into: raw) }
                }
                guard case .success(let count) = received, count > 0 else { return nil }
                decoder.append(Array(buffer[0..<count]))
            }
        }

        func send(_ frames: [Frame]) { _ = try? SystemCalls.sendAll(descriptor, frames.flatMap { $0.encoded() }) }

        /// Answers the client's hello as a daemon of protocol 2 that takes `largestPayload`.
        func helloAsProtocolTwo(largestPayload: Int = 1 << 20) {
            guard let hello = receive() else { return }
            let mine = ProtocolHello(protocolVersion: 2, largestPayload: largestPayload, largestAnswer: 1 << 30)
            send([Frame(kind: .helloReply, requestID: hello.requestID, payload: mine.fields.encoded())])
        }
    }

    static let caller = Caller(identity: CallerIdentity(applicationIdentifier: nil, accessGroups: []))
    static let query = ItemQuery(itemClass: .genericPassword, limit: .all)

    static func failure(_ body: () throws -> Void) -> KeychainError? {
        do {
            try body()
            return nil
        } catch {
            return error as? KeychainError
        }
    }

    @Test func aDaemonOfProtocolOneIsSpokenToInProtocolOne() throws {
        let daemon = try ScriptedDaemon { peer, _ in
            // A daemon of protocol 1 knows no hello: errSecUnimplemented, as for any kind it does not serve.
            guard let hello = peer.receive(), hello.kind == .hello else { return }
            peer.send([ErrorReply(status: -4, reason: "hello is not a request").frame(requestID: hello.requestID)])
            guard let request = peer.receive(), request.kind == .request else { return }
            let answer = try? ResponseCodec.encode(.success(.deleted(count: 3)))
            peer.send([Frame(kind: .response, requestID: request.requestID, payload: answer ?? [])])
        }
        let service = DaemonKeychainService(socketPath: daemon.path)
        guard case .deleted(let count) = try service.perform(.delete(Self.query), as: Self.caller) else {
            Issue.record("not a delete's answer")
            return
        }
        #expect(count == 3)
    }

    /// A daemon still running from before an upgrade (protocol 2) is not sent the Secure Enclave requests it would
    /// take for damaged messages: the client answers errSecUnimplemented itself, and the connection serves on.
    @Test func aSecureEnclaveRequestIsNotSentToADaemonOfProtocolTwo() throws {
        let daemon = try ScriptedDaemon { peer, _ in
            peer.helloAsProtocolTwo()
            guard let request = peer.receive(), request.kind == .request,
                (try? RequestCodec.decode(request.payload))?.request.minimumProtocol == 1
            else { return }
            let answer = try? ResponseCodec.encode(.success(.deleted(count: 1)))
            peer.send([Frame(kind: .response, requestID: request.requestID, payload: answer ?? [])])
        }
        let service = DaemonKeychainService(socketPath: daemon.path)
        let refusal = Self.failure {
            _ = try service.perform(.enclaveKey(.backing), as: Self.caller)
        }
        #expect(refusal?.status == -4)
        #expect(refusal?.reason?.contains("keychaind speaks protocol 2") == true)
        guard case .deleted(let count) = try service.perform(.delete(Self.query), as: Self.caller) else {
            Issue.record("not a delete's answer")
            return
        }
        #expect(count == 1)
    }

    /// A context's `localizedReason` (protocol 5) is not sent to an older daemon either: refused by the client.
    @Test func aLocalizedReasonIsNotSentToADaemonOfProtocolTwo() throws {
        let daemon = try ScriptedDaemon { peer, _ in peer.helloAsProtocolTwo() }
        let service = DaemonKeychainService(socketPath: daemon.path)
        let refusal = Self.failure {
            _ = try service.perform(.setLocalizedReason("why"), as: Self.caller)
        }
        #expect(refusal?.status == -4)
        #expect(refusal?.reason?.contains("needs protocol 5") == true)
    }

    @Test func anAnswerInManyPartsIsPutTogether() throws {
        let daemon = try ScriptedDaemon { peer, _ in
            peer.helloAsProtocolTwo()
            guard let request = peer.receive() else { return }
            let answer = (try? ResponseCodec.encode(.success(.deleted(count: 123_456)))) ?? []
            // One byte a part: the most parts an answer can have.
            peer.send(AnswerPart.frames(carrying: answer, requestID: request.requestID, largestPayload: 9))
        }
        let service = DaemonKeychainService(socketPath: daemon.path)
        guard case .deleted(let count) = try service.perform(.delete(Self.query), as: Self.caller) else {
            Issue.record("not a delete's answer")
            return
        }
        #expect(count == 123_456)
    }

    @Test func partsAnnouncingMoreThanTheClientTakesAreErrSecAllocateAndTheNextRequestConnectsAgain() throws {
        let daemon = try ScriptedDaemon(connections: 2) { peer, number in
            peer.helloAsProtocolTwo()
            guard let request = peer.receive() else { return }
            if number == 0 {
                let part = AnswerPart(totalSize: 2 << 30, piece: [1, 2, 3]).encoded()
                peer.send([Frame(kind: .responsePart, requestID: request.requestID, payload: part)])
                return
            }
            let answer = (try? ResponseCodec.encode(.success(.deleted(count: 1)))) ?? []
            peer.send([Frame(kind: .response, requestID: request.requestID, payload: answer)])
        }
        let service = DaemonKeychainService(socketPath: daemon.path)
        let error = Self.failure { _ = try service.perform(.delete(Self.query), as: Self.caller) }
        #expect(error?.status == -108)
        #expect(error?.reason?.contains("over this process's limit of 1073741824 bytes for one answer") == true)
        #expect(error?.localizedReason(in: .japanese)?.contains("1073741824 バイト") == true)
        let other = ItemQuery(itemClass: .genericPassword, attributes: [.account: .string("x")], limit: .all)
        guard case .deleted = try service.perform(.delete(other), as: Self.caller) else {
            Issue.record("the next request was not answered")
            return
        }
    }

    @Test func partsThatDoNotAddUpAreNotAvailableWithTheReason() throws {
        let daemon = try ScriptedDaemon { peer, _ in
            peer.helloAsProtocolTwo()
            guard let request = peer.receive() else { return }
            let part = AnswerPart(totalSize: 100, piece: Array(repeating: 0, count: 10)).encoded()
            peer.send([
                Frame(kind: .responsePart, requestID: request.requestID, payload: part),
                Frame(kind: .response, requestID: request.requestID, payload: [1, 2, 3, 4, 5]),
            ])
        }
        let service = DaemonKeychainService(socketPath: daemon.path)
        let error = Self.failure { _ = try service.perform(.delete(Self.query), as: Self.caller) }
        #expect(error?.status == -25291)
        #expect(error?.reason?.contains("its answer in parts is broken") == true)
    }

    @Test func aRequestOverTheLimitTheDaemonSaidIsErrSecParamAndNeverSent() throws {
        let daemon = try ScriptedDaemon { peer, _ in
            peer.helloAsProtocolTwo(largestPayload: 1024)
            guard let request = peer.receive() else { return }
            // Only the small request arrives.
            let answer = (try? ResponseCodec.encode(.success(.added(nil)))) ?? []
            peer.send([Frame(kind: .response, requestID: request.requestID, payload: answer)])
        }
        let service = DaemonKeychainService(socketPath: daemon.path)
        let big = NewItem(itemClass: .genericPassword, data: Array(repeating: 1, count: 2000))
        let error = Self.failure { _ = try service.perform(.add(big), as: Self.caller) }
        #expect(error?.status == -50)
        #expect(error?.reason?.contains("over keychaind's limit of 1024 bytes for one message") == true)
        let small = NewItem(itemClass: .genericPassword, data: [1])
        guard case .added = try service.perform(.add(small), as: Self.caller) else {
            Issue.record("the small request was not answered")
            return
        }
    }

    @Test func aRefusalInAnswerToTheHelloIsTheDaemonsRefusal() throws {
        let daemon = try ScriptedDaemon { peer, _ in
            peer.send([ErrorReply(status: -34018, reason: "refused: no rule").frame(requestID: 0)])
        }
        let service = DaemonKeychainService(socketPath: daemon.path)
        let error = Self.failure { _ = try service.perform(.delete(Self.query), as: Self.caller) }
        #expect(error?.status == -34018)
        #expect(error?.reason == "keychaind: refused: no rule")
    }
}
