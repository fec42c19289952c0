import Foundation
import KeychainCore
import Security

/// Signatures with a Secure Enclave key, in process or through keychaind (`keychaind-benchmark enclave COUNT`):
/// what a use costs when the daemon holds the key, loads it again from its stored form, opens its auth value and
/// signs, against the same in the client's own process. The software enclave, unless `KEYCHAIN_TPM_TCTI` names a
/// TPM for both.
enum EnclaveSignatures {
    /// The client: makes a key, then times `count` signatures from `start` (`ops=`, `start=`, `end=`, `cpu=`).
    static func run(count: Int, start: UInt64, setting: String) -> Int32 {
        SecureEnclaveSetting.$override.withValue(SecureEnclaveSetting(path: setting, administrator: getuid())) {
            let parameters: [String: Any] = [
                kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
                kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
            ]
            var error: Unmanaged<CFError>?
            guard let key = SecKeyCreateRandomKey(parameters as CFDictionary, &error) else {
                let status = error.map { CFErrorGetCode($0.takeRetainedValue()) } ?? 0
                FileHandle.standardError.write(Data("enclave key not made: \(status)\n".utf8))
                return 1
            }
            let message = Data("keychaind-benchmark".utf8) as CFData
            MonotonicClock.wait(until: start)
            let cpu = ProcessCPU.ownNanoseconds()
            var (ops, failures) = (0, 0)
            for _ in 0..<count {
                if SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, message, nil) != nil {
                    ops += 1
                } else {
                    failures += 1
                }
            }
            ClientCommand.report(ops: ops, failures: failures, start: start, cpuAtStart: cpu)
            return 0
        }
    }

    /// The driver: a keychaind with the software enclave opted in, one client in process and one through it.
    static func measure(count: Int, executable: String) throws {
        let directory = URL(fileURLWithPath: executable).deletingLastPathComponent().path
        let work = FileManager.default.temporaryDirectory.appendingPathComponent(
            "kd-enclave-" + UUID().uuidString.prefix(8).lowercased()
        ).path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        // The opt-in, owned as keychaind's policy (`--policy-owner`, this user) and writable by nobody else.
        let setting = work + "/secure-enclave"
        try Data("software\n".utf8).write(to: URL(fileURLWithPath: setting))
        chmod(work, 0o755)
        chmod(setting, 0o644)
        let daemon = try DaemonUnderTest(
            executable: directory + "/keychaind", directory: work, arguments: ["--secure-enclave-setting", setting])
        defer { daemon.stop() }

        let (viaDaemon, inProcess) = ClientFleet.pair(executable: executable, daemon: daemon, work: work)
        let arguments = { (start: UInt64) in [["enclave-signs", String(count), String(start), setting]] }
        let here = try inProcess.run(arguments(MonotonicClock.now() + 1_000_000_000))
        let start = MonotonicClock.now() + 1_000_000_000
        let there = try viaDaemon.run(arguments(start), start: start, daemon: daemon)
        guard here.failures == 0, there.failures == 0 else {
            throw BenchmarkError("signatures failed: \(here.failures) in process, \(there.failures) through keychaind")
        }
        print(
            "Secure Enclave signatures (\(count) each, \(SecureEnclaveBacking.configured().kind == "tpm" ? "TPM" : "software enclave")):"
        )
        print(
            String(
                format: "  in process:       %8.1f µs a signature, CPU %.1f µs", here.microsecondsPerOp,
                here.clientCPUMicrosecondsPerOp))
        print(
            String(
                format: "  through keychaind: %7.1f µs a signature, CPU %.1f µs client + %.1f µs keychaind (%.2f×)",
                there.microsecondsPerOp, there.clientCPUMicrosecondsPerOp, there.daemonCPUMicrosecondsPerOp ?? 0,
                there.microsecondsPerOp / max(here.microsecondsPerOp, 0.001)))
    }
}
