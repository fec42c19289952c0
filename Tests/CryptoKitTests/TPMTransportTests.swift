import KeychainTestSupport
import Testing

@testable import TPMEnclave

/// What crosses the TPM's transport (a TCP proxy in front of swtpm records it), as anyone who can watch it sees it.
@Suite(.serialized, .enabled(if: SoftwareTPM.isInstalled, "swtpm is not installed"))
struct TPMTransportTests {
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains {
            haystack[$0..<($0 + needle.count)].elementsEqual(needle)
        }
    }

    @Test func aKeysAuthValueNeverCrossesTheTransport() throws {
        let tpm = try SoftwareTPM()
        let proxy = try RecordingTCPProxy(forwardingTo: tpm.port)
        defer { proxy.stop() }
        let authorization = (0..<TPMConnection.maximumAuthorizationSize).map { _ in UInt8.random(in: 0...255) }
        do {
            let connection = try TPMConnection(tcti: proxy.tcti)
            let blob = try connection.createKey(use: .signing, authorization: authorization)
            let digest = [UInt8](repeating: 7, count: 32)
            #expect(try connection.sign(digest: digest, with: blob, authorization: authorization).count == 64)
        }
        let sent = proxy.sent
        #expect(sent.count > 500)
        let leaked = Self.contains(sent, authorization)
        #expect(!leaked, "the auth value crossed the transport in the clear")
    }
}
