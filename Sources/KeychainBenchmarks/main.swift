import Foundation
import KeychainCore
import Security

// Prints, in one run, ops/s of durable add, lookup by primary key returning data (1k and 100k items), update
// and delete: through the engine's typed API, through SecItem with the dictionary built in the loop, and for
// the floor (the least work any encrypted store must do). Run with `swift run -c release keychain-benchmarks`.
// Arguments: [durable-ops] [lookups] [large-item-count]

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let durableOps = arguments.count > 0 ? arguments[0] : 300
let lookups = arguments.count > 1 ? arguments[1] : 20_000
let largeCount = arguments.count > 2 ? arguments[2] : 100_000
let secret = Array("correct horse battery staple 123".utf8)

func floorKey(_ index: Int) -> [UInt8] { Array("svc\u{0}acct\(index)".utf8) }

func report(_ measurement: Measurement, floor: Measurement? = nil) {
    var line = measurement.name.padding(toLength: 44, withPad: " ", startingAt: 0)
    line += String(format: "%10.0f ops/s %9.2f µs/op", measurement.opsPerSecond, measurement.microsecondsPerOp)
    if let floor { line += String(format: "   %.2f × floor", measurement.opsPerSecond / floor.opsPerSecond) }
    print(line)
}

func makeKeychain(_ label: String) throws -> Keychain {
    try Keychain(configuration: KeychainConfiguration(
        home: scratchDirectory(label), identity: CallerIdentity(applicationIdentifier: "BENCH.app", accessGroups: ["BENCH.app"])))
}

func newItem(_ index: Int) -> NewItem {
    NewItem(itemClass: .genericPassword, attributes: [.service: .string("svc"), .account: .string("acct\(index)")],
            data: secret)
}

/// Fills `keychain` up to `count` items in batches, accounts numbered from 0.
func fill(_ keychain: Keychain, from start: Int, to count: Int) throws {
    var next = start
    while next < count {
        let end = min(next + 5_000, count)
        try keychain.add(contentsOf: (next..<end).map(newItem))
        next = end
    }
}

print("KeychainServices benchmark: \(durableOps) durable ops, \(lookups) lookups, large set \(largeCount) items")
print("")

// The floor.
let floorStore = FloorStore(directory: scratchDirectory("floor"))
let floorAdd = Measurement.run("floor: insert + fsync + AES-GCM", count: durableOps) {
    floorStore.add(primaryKey: floorKey(1_000_000 + $0), secret: secret)
}
floorStore.fill(count: 1_000, secret: secret, key: floorKey)
let floorLookupSmall = Measurement.run("floor: select + AES-GCM open (1k)", count: lookups) {
    precondition(floorStore.lookup(primaryKey: floorKey($0 % 1_000)) == secret.count)
}
floorStore.fill(count: largeCount - 1_000, secret: secret) { floorKey($0 + 1_000) }
let floorLookupLarge = Measurement.run("floor: select + AES-GCM open (\(largeCount / 1000)k)", count: lookups) {
    precondition(floorStore.lookup(primaryKey: floorKey(($0 * 7919) % largeCount)) == secret.count)
}
report(floorAdd)
report(floorLookupSmall)
report(floorLookupLarge)
print("")

// The engine's typed API.
let engine = try makeKeychain("engine")
let engineAdd = try Measurement.run("engine: add (durable)", count: durableOps) {
    try engine.add(newItem(1_000_000 + $0))
}
try fill(engine, from: 0, to: 1_000)
let engineLookupSmall = try Measurement.run("engine: lookup returning data (1k)", count: lookups) {
    let found = try engine.copyMatching(.genericPassword(service: "svc", account: "acct\($0 % 1_000)", returns: .data))
    precondition(found[0].data?.count == secret.count)
}
try fill(engine, from: 1_000, to: largeCount)
let engineLookupLarge = try Measurement.run("engine: lookup returning data (\(largeCount / 1000)k)", count: lookups) {
    let found = try engine.copyMatching(
        .genericPassword(service: "svc", account: "acct\(($0 * 7919) % largeCount)", returns: .data))
    precondition(found[0].data?.count == secret.count)
}
let engineUpdate = try Measurement.run("engine: update data (durable)", count: durableOps) {
    try engine.update(.genericPassword(service: "svc", account: "acct\($0)", limit: .all),
                      with: ItemChanges(data: Array("new secret \($0)".utf8)))
}
let engineDelete = try Measurement.run("engine: delete (durable)", count: durableOps) {
    try engine.delete(.genericPassword(service: "svc", account: "acct\($0)", limit: .all))
}
var caseInsensitive = ItemQuery.genericPassword(service: "SVC", account: "ACCT500", returns: .data)
caseInsensitive.caseInsensitive = true
let engineFolded = try Measurement.run("engine: case-insensitive lookup (\(largeCount / 1000)k)", count: lookups / 4) { _ in
    let found = try engine.copyMatching(caseInsensitive)
    precondition(found.count == 1)
}
report(engineAdd, floor: floorAdd)
report(engineLookupSmall, floor: floorLookupSmall)
report(engineLookupLarge, floor: floorLookupLarge)
report(engineUpdate, floor: floorAdd)
report(engineDelete, floor: floorAdd)
report(engineFolded, floor: floorLookupLarge)
print(String(format: "engine: lookup latency %dk / 1k = %.2f×", largeCount / 1000,
             engineLookupLarge.microsecondsPerOp / engineLookupSmall.microsecondsPerOp))
engine.close()
print("")

// The Security face, with the dictionary built in the loop as a client does.
let faceKeychain = try makeKeychain("face")
SecurityRuntime.install(faceKeychain)
let faceAdd = Measurement.run("SecItemAdd (durable)", count: durableOps) { index in
    let query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "svc",
        kSecAttrAccount as String: "acct\(1_000_000 + index)", kSecValueData as String: Data(secret),
    ]
    precondition(SecItemAdd(query as CFDictionary, nil) == errSecSuccess)
}
try fill(faceKeychain, from: 0, to: 1_000)
func faceLookup(_ account: String) {
    let query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "svc",
        kSecAttrAccount as String: account, kSecReturnData as String: true,
    ]
    var result: AnyObject?
    precondition(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
    precondition((result as? Data)?.count == secret.count)
}
let faceLookupSmall = Measurement.run("SecItemCopyMatching returning data (1k)", count: lookups) {
    faceLookup("acct\($0 % 1_000)")
}
try fill(faceKeychain, from: 1_000, to: largeCount)
let faceLookupLarge = Measurement.run("SecItemCopyMatching returning data (\(largeCount / 1000)k)", count: lookups) {
    faceLookup("acct\(($0 * 7919) % largeCount)")
}
let faceUpdate = Measurement.run("SecItemUpdate (durable)", count: durableOps) { index in
    let query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "svc",
        kSecAttrAccount as String: "acct\(index)",
    ]
    let changes: [String: Any] = [kSecValueData as String: Data("new \(index)".utf8)]
    precondition(SecItemUpdate(query as CFDictionary, changes as CFDictionary) == errSecSuccess)
}
let faceDelete = Measurement.run("SecItemDelete (durable)", count: durableOps) { index in
    let query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "svc",
        kSecAttrAccount as String: "acct\(index)",
    ]
    precondition(SecItemDelete(query as CFDictionary) == errSecSuccess)
}
let bridging = Measurement.run("client cost: build + bridge 4-key dictionary", count: lookups) { index in
    let query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "svc",
        kSecAttrAccount as String: "acct\(index)", kSecReturnData as String: true,
    ]
    precondition((query as CFDictionary).count == 4)
}
report(faceAdd, floor: floorAdd)
report(faceLookupSmall, floor: floorLookupSmall)
report(faceLookupLarge, floor: floorLookupLarge)
report(faceUpdate, floor: floorAdd)
report(faceDelete, floor: floorAdd)
report(bridging)
print(String(format: "SecItem: lookup latency %dk / 1k = %.2f×", largeCount / 1000,
             faceLookupLarge.microsecondsPerOp / faceLookupSmall.microsecondsPerOp))
faceKeychain.close()
print("")
print("Data protection (passcode KDF tuned to about 80 ms):")
try DataProtectionBenchmark.run(largeCount: largeCount, lookups: lookups / 4, makeItem: newItem)
