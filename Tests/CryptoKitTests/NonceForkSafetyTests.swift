import CryptoKit
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Nonces come from a per-thread buffer of random bytes; a forked child must not hand out the bytes its parent
/// will hand out next (a repeated AES-GCM nonce under one key reveals the authentication key).
@Suite struct CryptoKitNonceForkSafetyTests {
    @Test func forkedChildDoesNotRepeatTheParentsNonces() throws {
        _ = AES.GCM.Nonce()  // fills this thread's buffer
        var pipeEnds: [Int32] = [0, 0]
        try #require(pipe(&pipeEnds) == 0)
        let child = fork()
        try #require(child >= 0)
        if child == 0 {
            close(pipeEnds[0])
            var bytes = [UInt8]()
            for _ in 0..<4 { bytes += Array(AES.GCM.Nonce()) }
            _ = bytes.withUnsafeBytes { write(pipeEnds[1], $0.baseAddress, $0.count) }
            _exit(0)
        }
        close(pipeEnds[1])
        var parentBytes = [UInt8]()
        for _ in 0..<4 { parentBytes += Array(AES.GCM.Nonce()) }
        var childBytes = [UInt8](repeating: 0, count: 48)
        var received = 0
        let deadline = Date().addingTimeInterval(10)
        var status: Int32 = 0
        while waitpid(child, &status, WNOHANG) == 0 {
            if Date() > deadline {
                kill(child, SIGKILL)
                waitpid(child, &status, 0)
                Issue.record("the child did not finish")
                break
            }
            usleep(1_000)
        }
        received = childBytes.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress, 48) }
        close(pipeEnds[0])
        #expect(received == 48)
        #expect(childBytes != parentBytes)
        // No 12-byte nonce of the child's appears among the parent's.
        let parentNonces = Set(stride(from: 0, to: 48, by: 12).map { Array(parentBytes[$0..<($0 + 12)]) })
        for start in stride(from: 0, to: 48, by: 12) {
            #expect(!parentNonces.contains(Array(childBytes[start..<(start + 12)])))
        }
    }
}
