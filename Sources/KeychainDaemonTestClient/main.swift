import Foundation
import KeychainCore
import KeychainRequests
import KeychainWire
import Security
import SystemCalls

// A client app for keychaind's tests: SecItem calls on the generic passwords of service "shared", through the
// daemon named by KEYCHAIN_SOCKET. Copies of this file with other bytes are the "other apps" of the tests.
//
//   add ACCOUNT SECRET | add-guarded ACCOUNT SECRET (.devicePasscode) | get ACCOUNT | update ACCOUNT SECRET
//   delete ACCOUNT | ref ACCOUNT
//   get-ref HEX | update-ref HEX SECRET | delete-ref HEX | list | storm PREFIX COUNT | open PATH
//   list-service SERVICE | load NAME COUNT [LATENCY-FILE [GO-FILE]] (MixedLoad.swift)
//   storm-until PREFIX STOP-FILE [PAUSE-FILE] (StormUntilStopped.swift)
//   enclave-sign HEX (a signing key's stored form sent straight to the daemon, as a hostile client would)
//   explain PATH (`security apps show PATH`'s request: the daemon's fields, `key=value`)
//   claim-owner (claims owner rights with no terminal: `status=`, `prompted=`, `reason=`)
//   fork-get ACCOUNT (reads, forks, reads in the child, then in the parent: `before=`, `child=`, `after=` statuses)
//   wait SECONDS (sleeps, and connects to nothing)
//   exec-on-connection PROGRAM ARGUMENT… (connects, then execs PROGRAM with the connection as standard output)
//   with-library PATH COMMAND… (loads the library, then runs the command)
//   with-memfd-library PATH COMMAND… (loads a copy of the library from a memory file, then runs the command)
//
// Each prints `status=N` and, for a read, `data=TEXT`, for `ref`, `ref=HEX`, for `list`, `account=NAME` per item; `storm` prints `acked=ACCOUNT` after
// each add the daemon acknowledged, flushed at once, so a test that kills the daemon knows what was promised; `open`
// (no daemon) tries to open a file for reading and prints `opened=1` or `errno=N`, so a test run as another uid learns
// what that uid may read.

/// One line on standard output, written at once (a killed daemon's test reads what was promised so far).
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

func item(_ account: String) -> [String: Any] {
    [
        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "shared",
        kSecAttrAccount as String: account,
    ]
}

func bytes(hex: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex),
        let byte = UInt8(hex[index..<next], radix: 16)
    {
        bytes.append(byte)
        index = next
    }
    return bytes
}

func reference(_ hex: String) -> [String: Any] {
    [kSecValuePersistentRef as String: Data(bytes(hex: hex))]
}

func read(_ query: [String: Any]) {
    var query = query
    query[kSecReturnData as String] = true
    var result: AnyObject?
    let status = SecItemCopyMatching(query as CFDictionary, &result)
    say("status=\(status)")
    if let data = result as? Data { say("data=" + String(decoding: data, as: UTF8.self)) }
}

/// A copy of the file at `path` in a memory file (`memfd_create`, found at run time: glibc declares it only under
/// `_GNU_SOURCE`), as `/proc/self/fd/N`; nil when it cannot be made.
func memoryFileCopy(of path: String) -> String? {
    typealias MemfdCreate = @convention(c) (UnsafePointer<CChar>, UInt32) -> Int32
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "memfd_create"),
        let bytes = FileManager.default.contents(atPath: path)
    else { return nil }
    let descriptor = unsafeBitCast(symbol, to: MemfdCreate.self)("library", 0)
    guard descriptor >= 0 else { return nil }
    let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    return written == bytes.count ? "/proc/self/fd/\(descriptor)" : nil
}

var arguments = Array(CommandLine.arguments.dropFirst())
// `with-library PATH COMMAND…`: loads a library first, as a program loads a plugin, or one found beside it.
// `with-memfd-library PATH COMMAND…`: the same from a memory file, as the loader maps one named in `LD_PRELOAD`.
if ["with-library", "with-memfd-library"].contains(arguments.first), arguments.count > 2 {
    let library = arguments[0] == "with-library" ? arguments[1] : memoryFileCopy(of: arguments[1])
    guard let library, dlopen(library, RTLD_NOW) != nil else {
        say("loaded=0")
        exit(2)
    }
    arguments.removeFirst(2)
}
switch (arguments.first, arguments.count) {
case ("add", 3):
    var attributes = item(arguments[1])
    attributes[kSecValueData as String] = Data(arguments[2].utf8)
    say("status=\(SecItemAdd(attributes as CFDictionary, nil))")
case ("add-guarded", 3):
    // Read only after the device passcode is asked: the daemon asks it through this process's terminal.
    var attributes = item(arguments[1])
    attributes[kSecValueData as String] = Data(arguments[2].utf8)
    attributes[kSecAttrAccessControl as String] = SecAccessControlCreateWithFlags(
        nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, .devicePasscode, nil)
    say("status=\(SecItemAdd(attributes as CFDictionary, nil))")
case ("get", 2):
    read(item(arguments[1]))
case ("update", 3):
    say(
        "status=\(SecItemUpdate(item(arguments[1]) as CFDictionary, [kSecValueData as String: Data(arguments[2].utf8)] as CFDictionary))"
    )
case ("delete", 2):
    say("status=\(SecItemDelete(item(arguments[1]) as CFDictionary))")
case ("ref", 2):
    var query = item(arguments[1])
    query[kSecReturnPersistentRef as String] = true
    var result: AnyObject?
    let status = SecItemCopyMatching(query as CFDictionary, &result)
    say("status=\(status)")
    if let data = result as? Data { say("ref=" + data.map { String(format: "%02x", $0) }.joined()) }
case ("get-ref", 2):
    read(reference(arguments[1]))
case ("update-ref", 3):
    say(
        "status=\(SecItemUpdate(reference(arguments[1]) as CFDictionary, [kSecValueData as String: Data(arguments[2].utf8)] as CFDictionary))"
    )
case ("delete-ref", 2):
    say("status=\(SecItemDelete(reference(arguments[1]) as CFDictionary))")
case ("list", 1), ("list-service", 2):
    let service = arguments.count > 1 ? arguments[1] : "shared"
    var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service]
    query[kSecMatchLimit as String] = kSecMatchLimitAll
    query[kSecReturnAttributes as String] = true
    var result: AnyObject?
    let status = SecItemCopyMatching(query as CFDictionary, &result)
    say("status=\(status)")
    for attributes in (result as? [[String: Any]]) ?? [] {
        if let account = attributes[kSecAttrAccount as String] as? String { say("account=" + account) }
    }
case ("storm", 3):
    for index in 0..<(Int(arguments[2]) ?? 0) {
        let account = "\(arguments[1])-\(index)"
        var attributes = item(account)
        attributes[kSecValueData as String] = Data(account.utf8)
        let status = SecItemAdd(attributes as CFDictionary, nil)
        if status == errSecSuccess { say("acked=\(account)") } else { say("status=\(status)") }
    }
case ("load", 3...5):
    var load = MixedLoad(
        name: arguments[1], count: Int(arguments[2]) ?? 0, latencyPath: arguments.count > 3 ? arguments[3] : nil,
        goPath: arguments.count > 4 ? arguments[4] : nil)
    load.run()
case ("storm-until", 3...4):
    stormUntilStopped(prefix: arguments[1], stopPath: arguments[2], pausePath: arguments.count > 3 ? arguments[3] : nil)
case ("claim-owner", 1):
    let service = DaemonKeychainService(socketPath: ProcessInfo.processInfo.environment["KEYCHAIN_SOCKET"] ?? "")
    do {
        let grant = try service.claimOwnerRights(message: "a test client claims")
        say("status=\(grant.status)")
        say("prompted=\(grant.prompted)")
        say("reason=\(grant.reason)")
    } catch {
        say("status=\((error as? KeychainError)?.status ?? -1)")
    }
case ("enclave-sign", 2):
    let service = DaemonKeychainService(socketPath: ProcessInfo.processInfo.environment["KEYCHAIN_SOCKET"] ?? "")
    let request = EnclaveKeyRequest.sign(
        storedForm: bytes(hex: arguments[1]), use: 1, digest: Array(repeating: 7, count: 32), reason: nil)
    do {
        _ = try service.perform(.enclaveKey(request), as: service.caller())
        say("status=0")
    } catch {
        say("status=\((error as? KeychainError)?.status ?? -1)")
    }
case ("fork-get", 2):
    // A client that forks after using the keychain: the child must make its own connection, and the parent's
    // must go on (keychaind ends a connection on which another process sends).
    func readStatus(_ account: String) -> OSStatus {
        var query = item(account)
        query[kSecReturnData as String] = true
        var result: AnyObject?
        return SecItemCopyMatching(query as CFDictionary, &result)
    }
    say("before=\(readStatus(arguments[1]))")
    let child = fork()
    if child == 0 {
        say("child=\(readStatus(arguments[1]))")
        _exit(0)
    }
    var code: Int32 = 0
    waitpid(child, &code, 0)
    say("after=\(readStatus(arguments[1]))")
case ("explain", 2):
    // What `security apps show PATH` asks: the daemon's verdict on an executable, as `key=value` lines.
    do {
        let client = try DaemonClient(socketPath: ProcessInfo.processInfo.environment["KEYCHAIN_SOCKET"] ?? "")
        let answer = try client.request(.explainExecutable, payload: Array(arguments[1].utf8))
        for (name, value) in (try? FieldList.decode(answer.payload))?.fields ?? [] { say("\(name)=\(value)") }
    } catch {
        say("error=\(error)")
    }
case ("exec-on-connection", 2...):
    // Connects as a hostile process would, then becomes PROGRAM with the connection as its standard output, a
    // descriptor that survives the exec (no close-on-exec).
    do {
        let connection = try SystemCalls.connectedUnixSocket(
            to: ProcessInfo.processInfo.environment["KEYCHAIN_SOCKET"] ?? "")
        dup2(connection, 1)
        let argv = arguments.dropFirst().map { strdup($0) } + [nil]
        execv(arguments[1], argv)
        say("errno=\(errno)")
    } catch {
        say("error=\(error)")
    }
case ("wait", 2):
    // Only runs for a while: a process for a test to exec, which makes no connection of its own.
    sleep(UInt32(arguments[1]) ?? 0)
    say("status=0")
case ("open", 2):
    let descriptor = open(arguments[1], O_RDONLY)
    if descriptor >= 0 {
        close(descriptor)
        say("opened=1")
    } else {
        say("errno=\(errno)")
    }
default:
    FileHandle.standardError.write(Data("usage: see the comment at the top of main.swift\n".utf8))
    exit(64)
}
