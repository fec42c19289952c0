import SystemBus

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where fprintd's progress is shown and a cancel can come from: a terminal, or keychaind's relay.
protocol FingerConversation {
    func say(_ text: String)
    /// Whether the user asked to stop since the last look.
    func hasInput() -> Bool
}

extension TerminalConversation: FingerConversation {}

/// Relayed, nothing can cancel a scan but fprintd's own time limit: keychaind forwards lines, not keystrokes.
extension RelayConversation: FingerConversation {
    func hasInput() -> Bool { false }
}

/// fprintd, the fingerprint service, on its bus (its D-Bus interface `net.reactivated.Fprint`).
struct Fprintd {
    static let service = "net.reactivated.Fprint"
    static let managerPath = "/net/reactivated/Fprint/Manager"
    static let managerInterface = "net.reactivated.Fprint.Manager"
    static let deviceInterface = "net.reactivated.Fprint.Device"
    static let noDevice = "net.reactivated.Fprint.Error.NoSuchDevice"
    static let noEnrolledPrints = "net.reactivated.Fprint.Error.NoEnrolledPrints"

    let bus: BusConnection
    let user: String

    /// The default reader's object path; nil when there is none.
    func defaultDevice() throws(BusError) -> String? {
        do {
            return try bus.call(Self.service, Self.managerPath, Self.managerInterface, "GetDefaultDevice").first?.string
        } catch  where error.name == Self.noDevice {
            return nil
        }
    }

    /// The fingers enrolled for the user on `device`.
    func enrolledFingers(on device: String) throws(BusError) -> [String] {
        do {
            let reply = try bus.call(Self.service, device, Self.deviceInterface, "ListEnrolledFingers", [.string(user)])
            guard case .strings(let fingers)? = reply.first else { return [] }
            return fingers
        } catch  where error.name == Self.noEnrolledPrints {
            return []
        }
    }

    /// Asks for any enrolled finger on `device` until it matches, fails, or the user cancels at `conversation`'s
    /// terminal (any input there: Enter or Control-D). Gives up after `timeoutSeconds`, as a cancel.
    func verify(on device: String, conversation: FingerConversation, timeoutSeconds: Double) -> Outcome {
        do {
            try bus.addMatch("type='signal',interface='\(Self.deviceInterface)',path='\(device)'")
            _ = try bus.call(Self.service, device, Self.deviceInterface, "Claim", [.string(user)])
        } catch {
            return error.name == Self.noEnrolledPrints ? .noReader : failure(error)
        }
        defer { _ = try? bus.call(Self.service, device, Self.deviceInterface, "Release") }
        do {
            _ = try bus.call(Self.service, device, Self.deviceInterface, "VerifyStart", [.string("any")])
        } catch {
            return error.name == Self.noEnrolledPrints ? .noReader : failure(error)
        }
        let cancel = conversation is RelayConversation ? "" : " (Enter cancels)"
        conversation.say("Place a finger on the fingerprint reader\(cancel).")
        let outcome = awaitResult(conversation: conversation, timeoutSeconds: timeoutSeconds)
        _ = try? bus.call(Self.service, device, Self.deviceInterface, "VerifyStop")
        return outcome
    }

    private func awaitResult(conversation: FingerConversation, timeoutSeconds: Double) -> Outcome {
        var remaining = Int(timeoutSeconds * 10)
        while remaining > 0, bus.isConnected {
            remaining -= 1
            if conversation.hasInput() { return .canceled }
            guard let message = bus.next(timeoutMilliseconds: 100), message.isSignal,
                message.interface == Self.deviceInterface, message.member == "VerifyStatus"
            else { continue }
            let values = message.values
            guard case .string(let result)? = values.first else { continue }
            let done = values.count > 1 && values[1] == .boolean(true)
            switch result {
            case "verify-match": return .authenticated
            case "verify-no-match" where done: return .notAuthenticated
            case "verify-no-match": conversation.say("No match; try again.")
            case "verify-retry-scan", "verify-swipe-too-short", "verify-finger-not-centered",
                "verify-remove-and-retry":
                conversation.say("Try again (\(result.dropFirst("verify-".count))).")
            default:
                report("keychain-authenticate: fprintd: \(result)\n")
                return .unavailable
            }
        }
        return .canceled
    }

    private func failure(_ error: BusError) -> Outcome {
        report("keychain-authenticate: fprintd: \(error)\n")
        return .unavailable
    }
}
