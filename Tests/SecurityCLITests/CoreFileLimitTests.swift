import Foundation
import Testing

/// The `security` command takes passwords at a terminal and, in embedded mode, holds class keys: a crash or a
/// SIGQUIT must leave no core file with them in it, so the command sets its core file limit to 0 as it starts.
@Suite struct CoreFileLimitTests {
    /// Where this process may not allow core files at all (a hard limit of 0), the command's own 0 cannot be told
    /// from the one it inherits: nothing to show.
    @Test(.enabled(if: coreLimits(of: getpid()).last != "0", "the hard core limit is 0 already"))
    func theSecurityCommandAllowsNoCoreFile() throws {
        let program = try #require(MessageLanguageTests.securityProgram())
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("core-limit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // The shell lifts the limit first, so that the 0 seen below is the command's own doing.
        process.arguments = ["-c", "ulimit -c unlimited 2>/dev/null; exec \"$0\" -i", program.path]
        process.environment = ["KEYCHAIN_HOME": home.path, "PATH": "/usr/bin:/bin"]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        var limits: [String] = []
        for _ in 0..<250 {
            limits = Self.coreLimits(of: process.processIdentifier)
            if limits == ["0", "0"] { break }
            usleep(20_000)
        }
        #expect(limits == ["0", "0"])
    }

    /// The soft and hard core file limits of `pid`, as `/proc/<pid>/limits` shows them.
    static func coreLimits(of pid: Int32) -> [String] {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Max core file size") })
        else { return [] }
        return line.dropFirst("Max core file size".count).split(separator: " ").prefix(2).map(String.init)
    }
}
