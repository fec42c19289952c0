// A helper process for KeychainCoreTests' crash, race and cross-process lock tests; not a product.
//
//   KeychainTestChild add-loop <home> <group> <prefix>
//       Adds generic passwords (service "crash", account "<prefix>-<n>", secret "secret:<account>") for
//       n = 0, 1, … until killed (or orphaned); after each add returns success, writes the account on its own
//       line.
//   KeychainTestChild race <home> <group>
//       Writes "ready", then for every account read from stdin adds (service "race", that account) and
//       writes "<account> <status>" (0 on success, else the OSStatus).
//   KeychainTestChild read <home> <group> <account>
//       Reads the secret of the generic password with that account and writes the status (0 or the OSStatus).
//   KeychainTestChild quota <uid>
//       As root only: becomes <uid> and fills its kernel key quota with unlocked homes (QuotaScenario.swift).
//   KeychainTestChild protection-loop <home> <group> <prefix> <work-directory> <passcode>
//       Adds, updates, puts access control on, changes the passcode, locks, unlocks, backs up and restores,
//       over and over, announcing and acknowledging each change (see ProtectionLoop.swift).
//   KeychainTestChild environment <name>...
//       Writes "home=<the home fromEnvironment chooses>", then "<name>=<value>" for each name as the keychain's
//       configuration reads it ("<name>" alone when it reads it as unset).
//
// With KEYCHAIN_TEST_FAST_KDF=1 in the environment, passcode derivations are tuned to 2 ms (as in the tests).
import Foundation
import KeychainCore

func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}

let arguments = CommandLine.arguments
if arguments.count == 3, arguments[1] == "quota" {
    guard let uid = UInt32(arguments[2]) else { fail("quota needs a uid") }
    runQuotaScenario(uid: uid)
}
if arguments.count >= 2, arguments[1] == "environment" {
    do {
        emit("home=" + (try KeychainConfiguration.fromEnvironment()).home.path)
    } catch {
        fail("no configuration: \(error)")
    }
    for name in arguments.dropFirst(2) {
        emit(EnvironmentVariables.process[name].map { "\(name)=\($0)" } ?? name)
    }
    exit(0)
}
guard arguments.count >= 4 else {
    fail("usage: KeychainTestChild add-loop|race|read|protection-loop <home> <group> [argument...], or quota <uid>")
}
var configuration = KeychainConfiguration(
    home: URL(fileURLWithPath: arguments[2], isDirectory: true),
    identity: CallerIdentity(applicationIdentifier: arguments[3], accessGroups: [arguments[3]]))
if ProcessInfo.processInfo.environment["KEYCHAIN_TEST_FAST_KDF"] == "1" {
    configuration.passcodeDerivationTarget = 0.002
}
let keychain: Keychain
do { keychain = try Keychain(configuration: configuration) } catch { fail("cannot open keychain: \(error)") }

switch arguments[1] {
case "add-loop":
    guard arguments.count == 5 else { fail("add-loop needs a prefix") }
    // Never outlive the test that started us, even if it crashed before killing us.
    let parent = getppid()
    for index in 0..<1_000_000 where getppid() == parent {
        let account = "\(arguments[4])-\(index)"
        let item = NewItem(
            itemClass: .genericPassword, attributes: [.service: .string("crash"), .account: .string(account)],
            data: Array("secret:\(account)".utf8))
        do { try keychain.add(item) } catch { fail("add \(account) failed: \(error)") }
        emit(account)
    }
case "race":
    emit("ready")
    while let account = readLine() {
        let item = NewItem(
            itemClass: .genericPassword, attributes: [.service: .string("race"), .account: .string(account)],
            data: Array("secret:\(account)".utf8))
        var status: Int32 = 0
        do { try keychain.add(item) } catch let error as KeychainError { status = error.status } catch { status = 1 }
        emit("\(account) \(status)")
    }
case "read":
    guard arguments.count == 5 else { fail("read needs an account") }
    let query = ItemQuery(itemClass: .genericPassword, attributes: [.account: .string(arguments[4])], returns: .data)
    var status: Int32 = 0
    do { _ = try keychain.copyMatching(query) } catch let error as KeychainError { status = error.status } catch {
        status = 1
    }
    emit("\(status)")
case "protection-loop":
    guard arguments.count == 7 else { fail("protection-loop needs a prefix, a work directory and the passcode") }
    var loop = ProtectionLoop(
        keychain: keychain, configuration: configuration, prefix: arguments[4],
        work: URL(fileURLWithPath: arguments[5], isDirectory: true), passcode: arguments[6])
    loop.run()
default:
    fail("unknown command \(arguments[1])")
}
keychain.close()
