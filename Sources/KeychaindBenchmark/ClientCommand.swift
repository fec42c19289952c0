import Foundation
import Security

/// What one client process of the benchmark does: SecItem calls on generic passwords of service "bench", through
/// the daemon when `KEYCHAIN_SOCKET` is set, else in process. Each prints `ops=`, `failures=`, `start=` and `end=`
/// (monotonic nanoseconds) and `cpu=` (the CPU time, user and system, of its own process from the start to the
/// end, in nanoseconds) lines for the driver.
///
///     client adds PREFIX COUNT START_NS [DEADLINE_NS]   durable adds of PREFIX-0 …, from START_NS, until DEADLINE_NS
///                                                       (instants of CLOCK_MONOTONIC, in ns; a start more than
///                                                       an hour ahead is refused, exit 64)
///     client lookups PREFIX ACCOUNTS COUNT START_NS [WARM]
///                                                       COUNT lookups returning data of PREFIX-(i mod ACCOUNTS),
///                                                       timed after WARM untimed ones (0) made from START_NS
///     client echo COUNT [poll]                          echoes COUNT messages on standard input (SocketRoundTrip)
///     client enclave-signs COUNT START_NS SETTING       COUNT signatures with a new Secure Enclave SecKey, the
///                                                       software enclave opted in by the file SETTING (in process;
///                                                       through the daemon, its own setting counts)
enum ClientCommand {
    static let secret = Data("correct horse battery staple 123".utf8)

    static func query(_ account: String) -> [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "bench",
            kSecAttrAccount as String: account,
        ]
    }

    static func add(_ account: String) -> OSStatus {
        var attributes = query(account)
        attributes[kSecValueData as String] = secret
        return SecItemAdd(attributes as CFDictionary, nil)
    }

    static func lookup(_ account: String) -> Bool {
        var search = query(account)
        search[kSecReturnData as String] = true
        var result: AnyObject?
        return SecItemCopyMatching(search as CFDictionary, &result) == errSecSuccess
            && (result as? Data)?.count == secret.count
    }

    static func run(_ arguments: [String]) -> Int32 {
        switch (arguments.first, arguments.count) {
        case ("adds", 4), ("adds", 5):
            guard let count = Int(arguments[2]), let start = UInt64(arguments[3]), MonotonicClock.isNear(start) else {
                return 64
            }
            let deadline = arguments.count == 5 ? UInt64(arguments[4]) ?? .max : .max
            // The connection is made before the start, as a long-lived client has it.
            _ = lookup("warm-up")
            MonotonicClock.wait(until: start)
            let cpu = ProcessCPU.ownNanoseconds()
            var (ops, failures) = (0, 0)
            for index in 0..<count {
                if MonotonicClock.now() >= deadline { break }
                if add("\(arguments[1])-\(index)") == errSecSuccess { ops += 1 } else { failures += 1 }
            }
            report(ops: ops, failures: failures, start: start, cpuAtStart: cpu)
        case ("lookups", 5), ("lookups", 6):
            guard let accounts = Int(arguments[2]), accounts > 0, let count = Int(arguments[3]),
                let commonStart = UInt64(arguments[4]), MonotonicClock.isNear(commonStart),
                let warmUp = arguments.count == 6 ? Int(arguments[5]) : 0, warmUp >= 0
            else { return 64 }
            _ = lookup("\(arguments[1])-0")
            MonotonicClock.wait(until: commonStart)
            // A warmed-up run is timed from its own start: the warm-up's length is this process's alone.
            for index in 0..<warmUp { _ = lookup("\(arguments[1])-\(index % accounts)") }
            let start = warmUp > 0 ? MonotonicClock.now() : commonStart
            let cpu = ProcessCPU.ownNanoseconds()
            var (ops, failures) = (0, 0)
            for index in 0..<count {
                if lookup("\(arguments[1])-\(index % accounts)") { ops += 1 } else { failures += 1 }
            }
            report(ops: ops, failures: failures, start: start, cpuAtStart: cpu)
        case ("enclave-signs", 4):
            guard let count = Int(arguments[1]), let start = UInt64(arguments[2]), MonotonicClock.isNear(start) else {
                return 64
            }
            return EnclaveSignatures.run(count: count, start: start, setting: arguments[3])
        case ("echo", 2), ("echo", 3):
            guard let count = Int(arguments[1]) else { return 64 }
            return SocketRoundTrip.echo(count: count, polling: arguments.count == 3 && arguments[2] == "poll")
        default:
            FileHandle.standardError.write(Data("usage: see ClientCommand.swift\n".utf8))
            return 64
        }
        return 0
    }

    static func report(ops: Int, failures: Int, start: UInt64, cpuAtStart: UInt64) {
        let end = MonotonicClock.now()
        let cpu = ProcessCPU.ownNanoseconds() - cpuAtStart
        print("ops=\(ops)\nfailures=\(failures)\nstart=\(start)\nend=\(end)\ncpu=\(cpu)")
    }
}
