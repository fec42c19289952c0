import Foundation
import KernelKeyring
import KeychainCrypto

/// Giving keys back: the keyrings of keychain homes that no longer exist, and a clear error at the user's quota.
extension KeyringKeyStore {
    /// Drops the keyring of every keychain home whose `device.key` is gone from the recorded path, or belongs to
    /// another home now (the home was deleted and made anew). Runs at every open and before giving up on a full
    /// quota. A keyring whose home cannot be read (permissions, an unmounted disk) is kept only while the file
    /// exists: a home moved elsewhere needs its passcode again, which fails closed.
    /// - Returns: how many keyrings were dropped.
    @discardableResult
    static func dropKeyringsOfDeletedHomes() -> Int {
        var dropped = 0
        for (description, ring) in KernelKeyring.user.keyrings(prefix: keyringPrefix) {
            // No state yet: another process is creating it this moment (under its home's lock); leave it.
            guard let state = state(in: ring) else { continue }
            let namespace = description.dropFirst(keyringPrefix.count)
            if homeIsGone(state.homePath, namespace: String(namespace)) {
                ring.drop()
                dropped += 1
            }
        }
        return dropped
    }

    private static func homeIsGone(_ path: String, namespace: String) -> Bool {
        let deviceKeyURL = URL(fileURLWithPath: path, isDirectory: true).appendingPathComponent(DeviceKey.fileName)
        var stored: [UInt8]?
        do { stored = try SecretFile.read(deviceKeyURL) } catch { return false }
        // The array read is wiped itself (a second name for it would make the wipe clear a copy).
        defer { if stored != nil { wipe(&stored!) } }
        guard stored != nil else { return true }
        guard stored?.count == 32, let current = try? self.namespace(deviceKey: SecureBytes(stored!)) else {
            return false
        }
        return current != namespace
    }

    /// The error for a full key quota: what is full, why, and how to make room.
    static func quotaError(_ failure: KernelKeyring.Failure) -> KeychainError {
        let usage =
            KernelKeyring.userQuota()
            .map { KeychainError.Reason(" (\($0.keys) of \($0.limit) keys in use, /proc/key-users)") } ?? ""
        return KeychainError.notAvailable.because(
            "the kernel's key quota for this user is full\(usage), so the class keys cannot be kept: every keychain "
                + "home unlocked since the machine started holds a keyring of up to 4 keys, and other programs use "
                + "keys too. Keys of deleted keychain homes were given back already. Make room by running "
                + "`KEYCHAIN_HOME=<home> security simulate-restart` for keychain homes not in use, or list the "
                + "keyrings with `keyctl show @u` and drop one (a keychain.<namespace> keyring) with "
                + "`keyctl invalidate <id>`; or raise the limit (as root: `sysctl kernel.keys.maxkeys=<n>`). "
                + "(\(failure))")
    }
}
