import EnclaveKeys
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A `swtpm` process (Debian's software TPM 2.0) with a state directory of its own, serving the TPM command
/// protocol on a local TCP port, for the Secure Enclave's TPM back end (CryptoKit's and SecKey's tests).
package final class SoftwareTPM {
    package static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/swtpm") }

    package let stateDirectory: URL
    package private(set) var port: Int = 0
    private var process: Process?

    /// The TCTI configuration that reaches this TPM.
    package var tcti: String { "swtpm:host=127.0.0.1,port=\(port)" }

    /// Starts a TPM with a fresh state (new seeds).
    package init() throws {
        stateDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("keychain-tests-swtpm-\(UUID())")
        try FileManager.default.createDirectory(at: stateDirectory, withIntermediateDirectories: true)
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: stateDirectory)
    }

    /// Starts a TPM with a fresh state (new seeds) on `port` (and the control port beside it), where another one
    /// answered before: a TPM that stands in for another on its TCTI.
    package init(port: Int) throws {
        stateDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("keychain-tests-swtpm-\(UUID())")
        try FileManager.default.createDirectory(at: stateDirectory, withIntermediateDirectories: true)
        try start(port: port)
    }

    /// Starts `swtpm` over the same state directory: on `port` (and the control port beside it), the TCTI of a TPM
    /// stopped before, else on a free port pair (server, control).
    package func start(port: Int? = nil) throws {
        for _ in 0..<(port == nil ? 20 : 50) {
            // Below Linux's default range of ephemeral ports (32768-60999), where the local end of any connection
            // (another test's, to another swtpm) could hold the control port and make this swtpm exit.
            let candidate = port ?? Int.random(in: 20_000..<32_000)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/swtpm")
            process.arguments = [
                "socket", "--tpm2", "--tpmstate", "dir=\(stateDirectory.path)",
                "--server", "type=tcp,port=\(candidate),bindaddr=127.0.0.1",
                "--ctrl", "type=tcp,port=\(candidate + 1),bindaddr=127.0.0.1", "--flags", "not-need-init,startup-clear",
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // The TCTI talks to both: the command port and the control port beside it.
            if Self.waitForListener(port: candidate, process: process)
                && Self.waitForListener(port: candidate + 1, process: process) && process.isRunning
            {
                self.process = process
                self.port = candidate
                return
            }
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            if port != nil { usleep(100_000) }  // the port may still be held for a moment
        }
        throw CocoaError(.featureUnsupported)
    }

    /// Suspends the process (SIGSTOP): a TPM that stops answering, its sockets still open and taking bytes.
    package func pause() {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGSTOP)
    }

    /// Lets a paused process go on (SIGCONT): the TPM answers again, the commands it was sent first.
    package func resume() {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGCONT)
    }

    /// Stops the process (the state directory stays, so `start()` brings back the same TPM).
    package func stop() {
        guard let process else { return }
        resume()
        SecureEnclaveBackends.forgetConnection(to: tcti)
        // swtpm may not act on SIGTERM while a client is connected: give it a moment, then SIGKILL (its state
        // is written when it changes, not at exit).
        if process.isRunning {
            process.terminate()
            for _ in 0..<50 where process.isRunning { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        self.process = nil
    }

    /// Kills the process at once (SIGKILL, also while paused), as a crash would: the connections to it break, and
    /// the process's connections are left to find out (`stop()` drops them first). The state directory stays.
    package func crash() {
        guard let process else { return }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        self.process = nil
    }

    private static func waitForListener(port: Int, process: Process) -> Bool {
        for _ in 0..<200 {
            guard process.isRunning else { return false }
            let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            close(socketDescriptor)
            if connected == 0 { return true }
            usleep(10_000)
        }
        return false
    }
}
