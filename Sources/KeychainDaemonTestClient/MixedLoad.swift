import Foundation
import Security

#if canImport(Glibc)
    import Glibc
#endif

/// The `load` verb: COUNT mixed SecItem calls on this client's own items (accounts `NAME-k0` … `NAME-k19` of service
/// "shared"), 70 % lookups, the rest adds, updates and deletes, each answer checked against what the client last wrote:
/// a lookup returns exactly the value last written or errSecItemNotFound after a delete, an add of a present item is
/// errSecDuplicateItem, an update or delete of an absent one errSecItemNotFound, every other write succeeds. Prints
/// `wrong=…` for each answer that is not the expected one (at most 20), then `ops=`, `wrong=`, `busy=` (answers
/// errSecNotAvailable, the status a busy database would reach a caller with), `start-ns=` and `end-ns=`
/// (CLOCK_MONOTONIC, comparable between processes). With a latency file, writes each call's latency in microseconds,
/// one a line (`r N` for a lookup, `w N` for a write). With a go file, makes one untimed call, prints `ready=1`, and
/// starts when the file exists, so that many clients start together.
struct MixedLoad {
    let name: String
    let count: Int
    let latencyPath: String?
    let goPath: String?

    private static let accounts = 20
    private var expected: [Int: String] = [:]
    private var random: SplitMix
    private var wrong = 0
    private var busy = 0

    init(name: String, count: Int, latencyPath: String?, goPath: String?) {
        self.name = name
        self.count = count
        self.latencyPath = latencyPath
        self.goPath = goPath
        random = SplitMix(seed: name.utf8.reduce(1_469_598_103_934_665_603) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 })
    }

    mutating func run() {
        if let goPath {
            _ = SecItemCopyMatching(query(0) as CFDictionary, nil)
            say("ready=1")
            while access(goPath, F_OK) != 0 { usleep(1_000) }
        }
        var latencies: [(lookup: Bool, microseconds: UInt64)] = []
        latencies.reserveCapacity(count)
        let start = monotonicNanoseconds()
        for round in 0..<count {
            let before = monotonicNanoseconds()
            let lookup = step(round)
            latencies.append((lookup, (monotonicNanoseconds() - before) / 1_000))
        }
        let end = monotonicNanoseconds()
        if let latencyPath {
            let lines = latencies.map { ($0.lookup ? "r " : "w ") + String($0.microseconds) }
            let text = lines.joined(separator: "\n") + "\n"
            FileManager.default.createFile(atPath: latencyPath, contents: Data(text.utf8))
        }
        say("ops=\(count)")
        say("wrong=\(wrong)")
        say("busy=\(busy)")
        say("start-ns=\(start)")
        say("end-ns=\(end)")
    }

    /// One call: a lookup 70 % of the time, else an add (12 %), an update (10 %) or a delete (8 %), so about
    /// three items in five are present at any time and lookups see both answers.
    /// - Returns: whether the call was a lookup.
    private mutating func step(_ round: Int) -> Bool {
        let slot = Int(random.next() % UInt64(Self.accounts))
        let choice = random.next() % 100
        let present = expected[slot]
        switch choice {
        case 0..<70:
            var search = query(slot)
            search[kSecReturnData as String] = true
            var result: AnyObject?
            let status = SecItemCopyMatching(search as CFDictionary, &result)
            let value = (result as? Data).map { String(decoding: $0, as: UTF8.self) }
            if let present {
                check(status == errSecSuccess && value == present, "get", slot, status, value ?? "-", present)
            } else {
                check(status == errSecItemNotFound, "get", slot, status, value ?? "-", "absent")
            }
            return true
        case 70..<82:
            let value = "\(name)-v\(round)"
            var attributes = query(slot)
            attributes[kSecValueData as String] = Data(value.utf8)
            let status = SecItemAdd(attributes as CFDictionary, nil)
            if present == nil {
                check(status == errSecSuccess, "add", slot, status, "", "0")
                if status == errSecSuccess { expected[slot] = value }
            } else {
                check(status == errSecDuplicateItem, "add", slot, status, "", "-25299")
            }
        case 82..<92:
            let value = "\(name)-v\(round)"
            let changes = [kSecValueData as String: Data(value.utf8)]
            let status = SecItemUpdate(query(slot) as CFDictionary, changes as CFDictionary)
            if present == nil {
                check(status == errSecItemNotFound, "update", slot, status, "", "-25300")
            } else {
                check(status == errSecSuccess, "update", slot, status, "", "0")
                if status == errSecSuccess { expected[slot] = value }
            }
        default:
            let status = SecItemDelete(query(slot) as CFDictionary)
            if present == nil {
                check(status == errSecItemNotFound, "delete", slot, status, "", "-25300")
            } else {
                check(status == errSecSuccess, "delete", slot, status, "", "0")
                if status == errSecSuccess { expected[slot] = nil }
            }
        }
        return false
    }

    private func query(_ slot: Int) -> [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "shared",
            kSecAttrAccount as String: "\(name)-k\(slot)",
        ]
    }

    private mutating func check(
        _ right: Bool, _ operation: String, _ slot: Int, _ status: OSStatus, _ got: String, _ wanted: String
    ) {
        if status == errSecNotAvailable { busy += 1 }
        guard !right else { return }
        wrong += 1
        if wrong <= 20 {
            say("wrong=\(operation) \(name)-k\(slot) status=\(status) got=\(got) expected=\(wanted)")
        }
    }
}

/// A small deterministic generator (SplitMix64): each client's sequence of calls is the same from run to run.
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}
