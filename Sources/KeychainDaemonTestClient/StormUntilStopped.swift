import Foundation
import Security

#if canImport(Glibc)
    import Glibc
#endif

/// The `storm-until` verb: adds `PREFIX-0`, `PREFIX-1`, … (the account as its value, PREFIX as the service, so that
/// `list-service PREFIX` lists one client's items, not everyone's) one after another until the stop file exists,
/// through the same process and its one `Security` client all along, whatever happens to the daemon. Prints
/// `acked=ACCOUNT` after each add the daemon acknowledged, `down=ACCOUNT` when an add fails with errSecNotAvailable
/// after a success (the daemon went away), `back=ACCOUNT` on the first success after that (it came back and this
/// process uses it without restarting), `status=N ACCOUNT` for any other failure, and `done=1` at the end. While the
/// pause file (if named) exists, it waits instead of adding, so that a check can read the keychain while it does not
/// grow. An add that failed is not tried again under the same account: one that was sent and not answered may have
/// happened.
func stormUntilStopped(prefix: String, stopPath: String, pausePath: String?) {
    var index = 0
    var down = false
    while access(stopPath, F_OK) != 0 {
        if let pausePath, access(pausePath, F_OK) == 0 {
            usleep(20_000)
            continue
        }
        let account = "\(prefix)-\(index)"
        index += 1
        var attributes = item(account)
        attributes[kSecAttrService as String] = prefix
        attributes[kSecValueData as String] = Data(account.utf8)
        let status = SecItemAdd(attributes as CFDictionary, nil)
        switch status {
        case errSecSuccess:
            if down { say("back=\(account)") }
            down = false
            say("acked=\(account)")
        case errSecNotAvailable:
            if !down { say("down=\(account)") }
            down = true
            // The daemon is away: try again shortly, without spinning the cores its restart needs.
            usleep(20_000)
        default:
            say("status=\(status) \(account)")
        }
    }
    say("done=1")
}
