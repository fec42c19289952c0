import Foundation
import KeychainStore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// keychaind killed (SIGKILL) under sixteen client processes that keep writing: while it is down every client is
/// answered errSecNotAvailable, once it is back the same processes are served again, and every add acknowledged
/// before the kill is there. `scripts/daemon-faults.sh` runs twenty such rounds.
@Suite(.serialized) struct DaemonRestartTests {
    /// A client process whose output goes to a file, read while it runs.
    struct WritingClient {
        let process: Process
        let outputPath: String

        init(_ program: String, _ arguments: [String], socket: String, output: String) throws {
            outputPath = output
            FileManager.default.createFile(atPath: output, contents: nil)
            process = Process()
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
            var inherited = ProcessInfo.processInfo.environment
            inherited["LD_PRELOAD"] = nil
            inherited["KEYCHAIN_SOCKET"] = socket
            inherited["KEYCHAIN_HOME"] = "/nonexistent/embedded-must-not-be-used"
            process.environment = inherited
            process.standardOutput = FileHandle(forWritingAtPath: output)
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        /// The values of the complete lines `name=value` written so far.
        func values(_ name: String) -> [String] {
            let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            return text.split(separator: "\n", omittingEmptySubsequences: true).dropLast(text.hasSuffix("\n") ? 0 : 1)
                .compactMap { line in
                    line.hasPrefix(name + "=") ? String(line.dropFirst(name.count + 1)) : nil
                }
        }
    }

    /// Waits up to `seconds` for `condition`.
    static func eventually(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    @Test func clientsAreRefusedWhileTheDaemonIsDownAndServedAgainWhenItIsBack() throws {
        var daemon = try DaemonProcess()
        let directory = daemon.directory
        let program = try AppIsolationTests.Apps.clientExecutable()
        // The clients' files live apart from the daemon's directory, which goes with the last daemon.
        let outputs = "/tmp/kd-clients-" + UUID().uuidString.prefix(8).lowercased()
        try FileManager.default.createDirectory(atPath: outputs, withIntermediateDirectories: true)
        let stop = outputs + "/stop"
        let clients = try (0..<16).map { client in
            try WritingClient(
                program, ["storm-until", "s\(client)", stop], socket: daemon.socketPath,
                output: outputs + "/client\(client)")
        }
        defer {
            FileManager.default.createFile(atPath: stop, contents: nil)
            for client in clients { client.process.waitUntilExit() }
            try? FileManager.default.removeItem(atPath: outputs)
        }
        for round in 1...2 {
            // Every client has been served by this daemon before it is killed.
            let served = clients.map { $0.values("acked").count }
            #expect(Self.eventually(20) { zip(clients, served).allSatisfy { $0.values("acked").count > $1 + 5 } })
            daemon.kill()
            #expect(try daemon.integrityOfLeftDatabase() == "ok")
            usleep(400_000)
            let acknowledged = Set(clients.flatMap { $0.values("acked") })
            // Down: each client has seen errSecNotAvailable, and nothing else has failed.
            #expect(Self.eventually(10) { clients.allSatisfy { $0.values("down").count == round } })
            daemon = try DaemonProcess(directory: directory)
            // Back: the same processes are served again.
            #expect(Self.eventually(20) { clients.allSatisfy { $0.values("back").count == round } })
            for (index, client) in clients.enumerated() {
                #expect(client.values("status").isEmpty, "client \(index): \(client.values("status").prefix(3))")
                #expect(client.process.isRunning)
            }
            var stored: Set<String> = []
            for client in 0..<clients.count {
                let listing = try runClient(program, ["list-service", "s\(client)"], socket: daemon.socketPath)
                stored.formUnion(
                    listing.finish().split(separator: "\n").filter { $0.hasPrefix("account=") }
                        .map { String($0.dropFirst(8)) })
            }
            let missing = acknowledged.subtracting(stored)
            #expect(!acknowledged.isEmpty)
            #expect(missing.isEmpty, "round \(round): acknowledged adds lost: \(missing.sorted().prefix(5))")
        }
    }
}
