import Foundation
import KernelKeyring
import KeychainCrypto
import Synchronization

/// Class keys in the kernel, so that all processes of the user share one lock state and a restart of the machine
/// clears it (the kernel keeps keys in memory only).
///
/// Each keychain home gets one keyring of its own, `keychain.<namespace>`, inside the user keyring, and in it three
/// keys: `A` (the class A keys, which expire together after a lock), `C` (the class C keys, kept until restart),
/// and `state` (the home's path and, once locked, when class A goes): four keys of the user's quota per home.
/// The keyring is what is dropped when the passcode is removed, on a simulated restart, and when the home turns
/// out to be deleted.
final class KeyringKeyStore: UnlockedKeyStore {
    static let keyringPrefix = "keychain."
    let name = "kernel keyring"
    private let keyringName: String
    private let homePath: String
    // Serial numbers are not secrets; remembering them saves keyring searches on every read.
    private let serials = Mutex<[Group: Int32]>([:])

    /// The classes that share one kernel key, and so one lifetime.
    enum Group: String, CaseIterable {
        case classA = "A"
        case classC = "C"

        var members: [Accessibility] {
            switch self {
            case .classA: Accessibility.classA
            case .classC: [.afterFirstUnlock, .afterFirstUnlockThisDeviceOnly]
            }
        }

        init?(_ protection: Accessibility) {
            guard let group = Self.allCases.first(where: { $0.members.contains(protection) }) else { return nil }
            self = group
        }

        /// A present flag and 32 key bytes per member, in `members` order.
        static let slot = 33
        var payloadCount: Int { members.count * Self.slot }
    }

    /// - Parameters:
    ///   - namespace: distinguishes this keychain home from others of the same user.
    ///   - home: recorded beside the keys, so that a later open can tell when the home was deleted.
    init(namespace: String, home: URL) {
        keyringName = Self.keyringPrefix + namespace
        homePath = home.standardizedFileURL.path
    }

    /// The namespace of the keychain home whose device key is `deviceKey` (not secret; 8 bytes in hexadecimal).
    static func namespace(deviceKey: SecureBytes) throws -> String {
        let bytes = try KeyDerivation.hkdfSHA256(
            key: deviceKey, salt: Array(KeyHierarchy.derivationSalt.utf8),
            info: Array(KeyHierarchy.keyringNamespace.utf8), count: 8
        ).bytes
        return bytes.hexadecimal
    }

    private var keyring: KernelKeyring? { KernelKeyring.user.keyring(named: keyringName) }

    // MARK: - UnlockedKeyStore

    /// Callers hold the keybag's file lock, so no two processes create the home's keyring at once.
    func put(_ keys: [Accessibility: SecureBytes]) throws {
        do {
            do {
                try putOnce(keys)
            } catch let failure as KernelKeyring.Failure where failure.isQuotaExceeded {
                // Keys of deleted homes may be what fills the quota: give them back and try again.
                Self.dropKeyringsOfDeletedHomes()
                try putWhenRoomIsMade(keys, failure)
            }
        } catch let failure as KernelKeyring.Failure where failure.isQuotaExceeded {
            throw Self.quotaError(failure)
        } catch let error as KeychainError {
            throw error
        } catch {
            throw KeychainError.notAvailable.because("the kernel keyring refused the class keys: \(error)")
        }
    }

    /// The kernel returns dropped keys to the quota a moment later (its garbage collector runs apart), by this
    /// open's sweep or by the failed attempt's own clean-up: wait up to a second for room.
    private func putWhenRoomIsMade(_ keys: [Accessibility: SecureBytes], _ failure: KernelKeyring.Failure) throws {
        var last = failure
        for _ in 0..<40 {
            usleep(25_000)
            if let quota = KernelKeyring.userQuota(), quota.keys + 4 > quota.limit { continue }
            do {
                return try putOnce(keys)
            } catch let again as KernelKeyring.Failure where again.isQuotaExceeded {
                last = again
            }
        }
        throw last
    }

    private func putOnce(_ keys: [Accessibility: SecureBytes]) throws {
        let existing = keyring
        let ring = try existing ?? KernelKeyring.user.createKeyring(named: keyringName)
        do {
            try record(.unlocked, in: ring)
            for group in Group.allCases {
                var payload = try Self.payload(group, keys)
                defer { wipe(&payload) }
                try payload.withUnsafeBytes { _ = try ring.store(group.rawValue, payload: $0) }
            }
        } catch {
            // Half an unlock is no unlock: keys without their state (or the reverse) must not stay behind.
            ring.drop()
            serials.withLock { $0 = [:] }
            throw error
        }
        serials.withLock { $0 = [:] }
    }

    private static func payload(_ group: Group, _ keys: [Accessibility: SecureBytes]) throws -> [UInt8] {
        var payload = [UInt8](repeating: 0, count: group.payloadCount)
        for (index, protection) in group.members.enumerated() {
            guard let key = keys[protection] else { continue }
            guard key.count == 32 else {
                throw KeychainError.notAvailable.because("a class key of \(key.count) bytes cannot be kept")
            }
            payload[index * Group.slot] = 1
            key.withUnsafeBytes { bytes in
                for offset in 0..<32 { payload[index * Group.slot + 1 + offset] = bytes[offset] }
            }
        }
        return payload
    }

    func get(_ protection: Accessibility) throws -> SecureBytes? {
        guard let group = Group(protection) else { return nil }
        if let serial = serials.withLock({ $0[group] }), let key = read(serial, group, protection) { return key }
        // Never read, or the remembered key expired or was dropped: search once more.
        serials.withLock { $0[group] = nil }
        guard let serial = keyring?.serial(of: group.rawValue), let key = read(serial, group, protection) else {
            return nil
        }
        serials.withLock { $0[group] = serial }
        return key
    }

    private func read(_ serial: Int32, _ group: Group, _ protection: Accessibility) -> SecureBytes? {
        guard let index = group.members.firstIndex(of: protection) else { return nil }
        let payload = try? SecureBytes(count: group.payloadCount) { buffer in
            guard KernelKeyring.user.read(serial: serial, into: buffer) == group.payloadCount else {
                throw KeychainError.itemNotFound
            }
        }
        return payload?.withUnsafeBytes { bytes -> SecureBytes? in
            let start = index * Group.slot
            guard bytes[start] == 1 else { return nil }
            return SecureBytes(UnsafeRawBufferPointer(rebasing: bytes[(start + 1)..<(start + Group.slot)]))
        }
    }

    /// Fails closed: class A's key is set to expire (or dropped at once) first, and only then is the lock
    /// recorded; a key the kernel refuses a timeout for is dropped. A lock while locked takes the earlier of the
    /// recorded deadline and its own, so it never extends the grace period but may shorten it (a period set
    /// shorter since), and it completes a lock that was interrupted.
    func lock(classAExpiresAfter seconds: Int) throws {
        guard let ring = keyring else { return }  // nothing unlocked: nothing to lock
        let now = Int(time(nil))
        let later = now.addingReportingOverflow(max(seconds, 0))
        let own = later.overflow ? Int.max : later.partialValue
        let deadline = min(Self.lockDeadline(in: ring) ?? own, own)
        if let classA = ring.serial(of: Group.classA.rawValue) {
            // Arithmetic that cannot trap: a deadline the kernel cannot count drops the key now.
            let remaining = deadline.subtractingReportingOverflow(now)
            if remaining.overflow || remaining.partialValue <= 0 {
                ring.invalidate(classA)
            } else {
                do { try ring.expire(serial: classA, after: remaining.partialValue) } catch { ring.invalidate(classA) }
            }
        }
        serials.withLock { $0[.classA] = nil }
        do {
            try record(.locked(until: deadline), in: ring)
        } catch {
            throw KeychainError.notAvailable.because(
                "class A was locked, but the kernel keyring refused to record the lock: \(error)")
        }
    }

    var isLocked: Bool {
        guard let ring = keyring else { return false }
        return Self.lockDeadline(in: ring) != nil
    }

    var holdsAnything: Bool { keyring != nil }

    func clear() {
        keyring?.drop()
        serials.withLock { $0 = [:] }
    }

    // MARK: - The state key

    private enum LockRecord {
        case unlocked
        case locked(until: Int)
    }

    /// `state` holds one line, `unlocked` or `locked-until <seconds since 1970>`, then the home's path.
    private func record(_ lock: LockRecord, in ring: KernelKeyring) throws {
        let line: String
        switch lock {
        case .unlocked: line = "unlocked"
        case .locked(let deadline): line = "locked-until \(deadline)"
        }
        try Array((line + "\n" + homePath).utf8).withUnsafeBytes { _ = try ring.store("state", payload: $0) }
    }

    /// The state key's text, when the keyring has one.
    static func state(in ring: KernelKeyring) -> (line: Substring, homePath: String)? {
        guard let serial = ring.serial(of: "state") else { return nil }
        var buffer = [UInt8](repeating: 0, count: 8192)
        guard let length = buffer.withUnsafeMutableBytes({ ring.read(serial: serial, into: $0) }),
            length <= buffer.count
        else { return nil }
        let text = String(decoding: buffer[..<length], as: UTF8.self)
        guard let newline = text.firstIndex(of: "\n") else { return nil }
        return (text[..<newline], String(text[text.index(after: newline)...]))
    }

    private static func lockDeadline(in ring: KernelKeyring) -> Int? {
        guard let line = state(in: ring)?.line, line.hasPrefix("locked-until ") else { return nil }
        // An unreadable deadline is a lock that has already run out.
        return Int(line.dropFirst("locked-until ".count)) ?? 0
    }
}
