// A stand-in for fprintd on a private bus, for the fingerprint back end's tests.
//
//   KeychainTestFprintd BUS_ADDRESS STATE_FILE
//
// STATE_FILE is read at every call, so a test changes the reader by rewriting it: a line "device no" removes the
// reader; a line "fingers A,B" lists the enrolled fingers (none when absent); every other line is a VerifyStatus
// result the next VerifyStart reports, in order ("verify-retry-scan", then "verify-match" ...), each consumed.
// With no result queued, a verification waits, as a reader nobody touches. Prints "ready" once it owns the name.
import SystemBus

#if canImport(Glibc)
    import Glibc
#endif

func complain(_ text: String) {
    _ = (text + "\n").withCString { write(2, $0, strlen($0)) }
}

let device = "/net/reactivated/Fprint/Device/0"
let deviceInterface = "net.reactivated.Fprint.Device"
let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    complain("usage: KeychainTestFprintd BUS_ADDRESS STATE_FILE")
    exit(64)
}
let stateFile = arguments[2]

struct State {
    var hasDevice = true
    var fingers: [String] = []
    var results: [String] = []

    static func read() -> State {
        var state = State()
        guard let file = fopen(stateFile, "r") else { return state }
        defer { fclose(file) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        while getline(&line, &capacity, file) > 0, let line {
            let text = String(cString: line).trimmingCharacters(in: [" ", "\n"])
            if text == "device no" {
                state.hasDevice = false
            } else if text.hasPrefix("fingers ") {
                state.fingers = text.dropFirst("fingers ".count).split(separator: ",").map(String.init)
            } else if !text.isEmpty {
                state.results.append(text)
            }
        }
        free(line)
        return state
    }

    func write() {
        var text = hasDevice ? "" : "device no\n"
        if !fingers.isEmpty { text += "fingers \(fingers.joined(separator: ","))\n" }
        text += results.map { $0 + "\n" }.joined()
        guard let file = fopen(stateFile + ".new", "w") else { return }
        fputs(text, file)
        fclose(file)
        rename(stateFile + ".new", stateFile)
    }
}

extension String {
    func trimmingCharacters(in set: Set<Character>) -> String {
        String(drop(while: set.contains).reversed().drop(while: set.contains).reversed())
    }
}

let bus: BusConnection
do {
    bus = try BusConnection(address: arguments[1])
    try bus.requestName("net.reactivated.Fprint")
} catch {
    complain("KeychainTestFprintd: \(error)")
    exit(1)
}
_ = "ready\n".withCString { write(1, $0, strlen($0)) }

while bus.isConnected {
    guard let call = bus.next(timeoutMilliseconds: 1_000), call.isMethodCall, let member = call.member else { continue }
    var state = State.read()
    switch (call.interface, member) {
    case ("net.reactivated.Fprint.Manager", "GetDefaultDevice"):
        if state.hasDevice {
            bus.reply(to: call, [.objectPath(device)])
        } else {
            bus.replyError(to: call, name: "net.reactivated.Fprint.Error.NoSuchDevice", message: "No devices available")
        }
    case (deviceInterface, "ListEnrolledFingers") where state.fingers.isEmpty,
        (deviceInterface, "VerifyStart") where state.fingers.isEmpty:
        bus.replyError(to: call, name: "net.reactivated.Fprint.Error.NoEnrolledPrints", message: "No prints enrolled")
    case (deviceInterface, "ListEnrolledFingers"):
        bus.reply(to: call, [.strings(state.fingers)])
    case (deviceInterface, "Claim"), (deviceInterface, "Release"), (deviceInterface, "VerifyStop"):
        bus.reply(to: call)
    case (deviceInterface, "VerifyStart"):
        bus.reply(to: call)
        bus.signal(device, deviceInterface, "VerifyFingerSelected", [.string("any")])
        while !state.results.isEmpty {
            let result = state.results.removeFirst()
            let done = result == "verify-match" || result == "verify-no-match"
            bus.signal(device, deviceInterface, "VerifyStatus", [.string(result), .boolean(done)])
            if done { break }
        }
        state.write()
    default:
        bus.replyError(to: call, name: "org.freedesktop.DBus.Error.UnknownMethod", message: member)
    }
}
