import Foundation
import KeychainCore
import Security

// Prints, in one run, ops/s of durable add, lookup by primary key returning data (1k and a large set), update
// and delete: through the engine's typed API, through SecItem with the dictionary built in the loop, and for
// the floor (the least work any encrypted store must do). Durable operations are interleaved with the floor's
// (one floor insert, one engine call, one SecItem call, and again), so that all of them meet the same disk.
// Run with `swift run -c release keychain-benchmarks [durable-ops] [lookups] [large-item-count]`.

FloorOnly.runIfAsked()
LookupProfile.runIfAsked()
AccessControlBenchmark.runIfAsked()
DataProtectionBenchmark.runIfAsked()

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
    try Keychain(
        configuration: KeychainConfiguration(
            home: scratchDirectory(label),
            identity: CallerIdentity(applicationIdentifier: "BENCH.app", accessGroups: ["BENCH.app"])))
}

func newItem(_ index: Int) -> NewItem {
    NewItem(
        itemClass: .genericPassword, attributes: [.service: .string("svc"), .account: .string("acct\(index)")],
        data: secret)
}

/// Fills `keychain` up to `count` items in batches, accounts numbered from `start`.
func fill(_ keychain: Keychain, from start: Int, to count: Int) throws {
    var next = start
    while next < count {
        let end = min(next + 5_000, count)
        try keychain.add(contentsOf: (next..<end).map(newItem))
        next = end
    }
}

func genericQuery(_ account: String) -> [String: Any] {
    [
        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "svc",
        kSecAttrAccount as String: account,
    ]
}

print("KeychainServices benchmark: \(durableOps) durable ops, \(lookups) lookups, large set \(largeCount) items")
print("")

let floorStore = FloorStore(directory: scratchDirectory("floor"))
let engine = try makeKeychain("engine")
let faceKeychain = try makeKeychain("face")
SecurityRuntime.install(faceKeychain)

// Durable adds, interleaved.
let adds = try Interleaved.run(
    count: durableOps,
    [
        ("floor: insert + fsync + AES-GCM", { floorStore.add(primaryKey: floorKey(1_000_000 + $0), secret: secret) }),
        ("engine: add (durable)", { try engine.add(newItem(1_000_000 + $0)) }),
        (
            "SecItemAdd (durable)",
            { index in
                var query = genericQuery("acct\(1_000_000 + index)")
                query[kSecValueData as String] = Data(secret)
                precondition(SecItemAdd(query as CFDictionary, nil) == errSecSuccess)
            }
        ),
    ])

// Lookups with 1k items, then with the large set.
floorStore.fill(count: 1_000, secret: secret, key: floorKey)
try fill(engine, from: 0, to: 1_000)
try fill(faceKeychain, from: 0, to: 1_000)
func engineLookup(_ account: String) throws {
    let found = try engine.copyMatching(.genericPassword(service: "svc", account: account, returns: .data))
    precondition(found[0].data?.count == secret.count)
}
func faceLookup(_ account: String) {
    var query = genericQuery(account)
    query[kSecReturnData as String] = true
    var result: AnyObject?
    precondition(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
    precondition((result as? Data)?.count == secret.count)
}
// Lookups are interleaved too, 500 of each kind per round: the machine's other work then slows the floor and the
// engine alike, and the ratios hold where the absolute figures wander.
let lookupChunk = 500
let smallLookups = try Interleaved.run(
    count: lookups, chunk: lookupChunk,
    [
        (
            "floor: select + AES-GCM open (1k)",
            { precondition(floorStore.lookup(primaryKey: floorKey($0 % 1_000)) == secret.count) }
        ),
        ("engine: lookup returning data (1k)", { try engineLookup("acct\($0 % 1_000)") }),
        ("SecItemCopyMatching returning data (1k)", { faceLookup("acct\($0 % 1_000)") }),
    ])
let (floorLookupSmall, engineLookupSmall, faceLookupSmall) = (smallLookups[0], smallLookups[1], smallLookups[2])
floorStore.fill(count: largeCount - 1_000, secret: secret) { floorKey($0 + 1_000) }
try fill(engine, from: 1_000, to: largeCount)
try fill(faceKeychain, from: 1_000, to: largeCount)
let large = "\(largeCount / 1000)k"
let largeLookups = try Interleaved.run(
    count: lookups, chunk: lookupChunk,
    [
        (
            "floor: select + AES-GCM open (\(large))",
            { precondition(floorStore.lookup(primaryKey: floorKey(($0 * 7919) % largeCount)) == secret.count) }
        ),
        ("engine: lookup returning data (\(large))", { try engineLookup("acct\(($0 * 7919) % largeCount)") }),
        ("SecItemCopyMatching returning data (\(large))", { faceLookup("acct\(($0 * 7919) % largeCount)") }),
    ])
let (floorLookupLarge, engineLookupLarge, faceLookupLarge) = (largeLookups[0], largeLookups[1], largeLookups[2])
// Accounts among the first thousand (the folded columns have no index, so a lookup scans in insertion order up
// to its item), a different one each time so each lookup folds its value: the engine remembers recent query
// digests, and a repeated query would measure that cache instead.
let engineFolded = try Measurement.run("engine: case-insensitive lookup (\(large))", count: lookups / 4) { index in
    var folded = ItemQuery.genericPassword(service: "SVC", account: "ACCT\((index * 7919) % 1_000)", returns: .data)
    folded.caseInsensitive = true
    let found = try engine.copyMatching(folded)
    precondition(found.count == 1)
}

// Durable updates and deletes, each interleaved with a floor insert.
let updates = try Interleaved.run(
    count: durableOps,
    [
        ("floor: insert + fsync + AES-GCM", { floorStore.add(primaryKey: floorKey(2_000_000 + $0), secret: secret) }),
        (
            "engine: update data (durable)",
            {
                try engine.update(
                    .genericPassword(service: "svc", account: "acct\($0)", limit: .all),
                    with: ItemChanges(data: Array("new secret \($0)".utf8)))
            }
        ),
        (
            "SecItemUpdate (durable)",
            { index in
                let changes: [String: Any] = [kSecValueData as String: Data("new \(index)".utf8)]
                precondition(
                    SecItemUpdate(genericQuery("acct\(index)") as CFDictionary, changes as CFDictionary)
                        == errSecSuccess)
            }
        ),
    ])
let deletes = try Interleaved.run(
    count: durableOps,
    [
        ("floor: insert + fsync + AES-GCM", { floorStore.add(primaryKey: floorKey(3_000_000 + $0), secret: secret) }),
        (
            "engine: delete (durable)",
            { try engine.delete(.genericPassword(service: "svc", account: "acct\($0)", limit: .all)) }
        ),
        (
            "SecItemDelete (durable)",
            { precondition(SecItemDelete(genericQuery("acct\($0)") as CFDictionary) == errSecSuccess) }
        ),
    ])
let bridging = Measurement.run("client cost: build + bridge 4-key dictionary", count: lookups) { index in
    var query = genericQuery("acct\(index)")
    query[kSecReturnData as String] = true
    precondition((query as CFDictionary).count == 4)
}

print("Durable operations (each interleaved with the floor's insert):")
report(adds[0])
report(adds[1], floor: adds[0])
report(adds[2], floor: adds[0])
report(updates[1], floor: updates[0])
report(updates[2], floor: updates[0])
report(deletes[1], floor: deletes[0])
report(deletes[2], floor: deletes[0])
print("")
print("Lookups by primary key, returning data:")
report(floorLookupSmall)
report(engineLookupSmall, floor: floorLookupSmall)
report(faceLookupSmall, floor: floorLookupSmall)
report(floorLookupLarge)
report(engineLookupLarge, floor: floorLookupLarge)
report(faceLookupLarge, floor: floorLookupLarge)
report(engineFolded, floor: floorLookupLarge)
report(bridging)
print(
    String(
        format: "lookup latency %@ / 1k: engine %.2f×, SecItem %.2f×", large,
        engineLookupLarge.microsecondsPerOp / engineLookupSmall.microsecondsPerOp,
        faceLookupLarge.microsecondsPerOp / faceLookupSmall.microsecondsPerOp))
engine.close()
faceKeychain.close()

print("")
print("Data protection (passcode KDF tuned to about 80 ms):")
try DataProtectionBenchmark.run(largeCount: largeCount, lookups: lookups / 4, makeItem: newItem)
try AccessControlBenchmark.run(lookups: lookups / 4)
try KeyItemBenchmark.run(lookups: lookups / 4)
