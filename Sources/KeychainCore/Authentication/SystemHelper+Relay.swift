import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension SystemOwnerAuthentication {
    /// Authenticates `user` through the PAM stack, the helper's conversation relayed on pipes instead of a
    /// terminal: each message goes to `relay` and each typed answer back to PAM. What decides is what PAM says in
    /// the helper; `relay` can only pass on what was typed. Used by keychaind, which names its client's user.
    package func authenticate(
        user: String, reason: String, relay: (SystemPrompt) -> SystemPromptReply
    ) -> SystemAuthenticationOutcome {
        var arguments = ["--service", service, "--user", user, "--conversation", "relay"]
        if !reason.isEmpty { arguments += ["--reason", SystemHelper.shown(reason)] }
        if let serviceDirectory { arguments += ["--pam-directory", serviceDirectory] }
        return SystemHelper.runRelayed(helper, arguments, relay: relay)
    }
}

extension SystemFingerprintReader {
    /// Asks fprintd for a finger of the reader's user, the helper's messages ("place a finger") relayed as
    /// information instead of shown at a terminal. What decides is what fprintd says in the helper.
    package func verify(reason: String, relay: (SystemPrompt) -> SystemPromptReply) -> SystemAuthenticationOutcome {
        var arguments = ["fingerprint", "--conversation", "relay"] + identityArguments
        if !reason.isEmpty { arguments += ["--reason", SystemHelper.shown(reason)] }
        return SystemHelper.runRelayed(helper, arguments, relay: relay)
    }
}

extension SystemHelper {
    /// The longest reason shown, in UTF-8 bytes: a prompt's reason is the caller's text, and the helper passes it
    /// on as one message, which must stay far within what ``readMessage(_:)`` takes.
    static let longestReason = 1024

    /// `reason` as the helper shows it: cut to ``longestReason`` bytes, at a character's end.
    static func shown(_ reason: String) -> String {
        guard reason.utf8.count > longestReason else { return reason }
        var cut = ""
        for character in reason {
            guard cut.utf8.count + character.utf8.count <= longestReason else { break }
            cut.append(character)
        }
        return cut
    }

    /// Runs `helper` with `arguments` (which ask for `--conversation relay`) and relays its conversation: each
    /// message it writes goes to `relay`, each typed answer back to it. What decides is the helper's exit status;
    /// `relay` can only pass on what was typed. A relay that cannot show a message (no terminal, or its
    /// background) ends the run at once with `.noTerminal`: the user was not told what is asked, so nothing that
    /// happens meanwhile (a finger on the reader) may count.
    static func runRelayed(
        _ helper: URL, _ arguments: [String], relay: (SystemPrompt) -> SystemPromptReply
    ) -> SystemAuthenticationOutcome {
        let process = Process()
        process.executableURL = helper
        process.arguments = arguments
        let toHelper = Pipe()
        let fromHelper = Pipe()
        let errors = Pipe()
        process.standardInput = toHelper
        process.standardOutput = fromHelper
        process.standardError = errors
        do {
            try process.run()
        } catch {
            return .unavailable("\(SystemHelper.name) could not be started: \(error)")
        }
        let input = fromHelper.fileHandleForReading.fileDescriptor
        let output = toHelper.fileHandleForWriting.fileDescriptor
        let couldNotShow = converse(input: input, output: output, relay: relay)
        // fprintd's scan stops with its client; PAM has had its cancel.
        if couldNotShow { process.terminate() }
        // A helper whose message was refused (too long, or malformed) may still be writing it: closing the pipe
        // ends its write, so that it exits instead of waiting for a reader for good.
        try? fromHelper.fileHandleForReading.close()
        try? toHelper.fileHandleForWriting.close()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let run = SystemHelper.Run(
            status: process.terminationStatus, output: "",
            errors: errorText.trimmingCharacters(in: .whitespacesAndNewlines))
        return couldNotShow ? .noTerminal : run.outcome
    }

    /// Reads the helper's messages until it closes its output, relaying each, or until the relay cannot show one.
    /// - Returns: whether the relay could not show a message to the user.
    private static func converse(
        input: Int32, output: Int32, relay: (SystemPrompt) -> SystemPromptReply
    ) -> Bool {
        var couldNotShow = false
        while !couldNotShow, let message = Self.readMessage(input) {
            let reply = relay(message)
            if case .failed(.notInteractive) = reply { couldNotShow = true }
            guard message.style.isQuestion else { continue }
            var bytes: [UInt8]
            switch reply {
            case .typed(let typed):
                let count = UInt32(typed.secure.count)
                bytes = [0, UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF)]
                bytes.append(UInt8(count & 0xFF))
                typed.secure.withUnsafeBytes { bytes += $0 }
            case .shown, .failed:
                bytes = [1]
            }
            _ = bytes.withUnsafeBytes { Self.writeAll(output, $0) }
            bytes.withUnsafeMutableBytes { raw in
                for index in raw.indices { raw[index] = 0 }
            }
        }
        return couldNotShow
    }

    private static func readMessage(_ input: Int32) -> SystemPrompt? {
        var header = [UInt8](repeating: 0, count: 5)
        guard header.withUnsafeMutableBytes({ readAll(input, $0) }), let style = SystemPrompt.Style(rawValue: header[0])
        else { return nil }
        let length = header[1...].reduce(0) { $0 << 8 | Int($1) }
        guard length <= 64 * 1024 else { return nil }
        var text = [UInt8](repeating: 0, count: length)
        guard text.withUnsafeMutableBytes({ readAll(input, $0) }) else { return nil }
        return SystemPrompt(style: style, text: String(decoding: text, as: UTF8.self))
    }

    private static func readAll(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Bool {
        var done = 0
        while done < buffer.count {
            let count = read(descriptor, buffer.baseAddress.map { $0 + done }, buffer.count - done)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return done == buffer.count }
            done += count
        }
        return true
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var done = 0
        while done < bytes.count {
            let count = write(descriptor, bytes.baseAddress.map { $0 + done }, bytes.count - done)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            done += count
        }
        return true
    }
}
