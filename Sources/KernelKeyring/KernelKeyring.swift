internal import SystemCalls

@_implementationOnly import CKeyutils

#if canImport(Glibc)
    import Glibc
#endif

/// Secrets held by the Linux kernel in keyrings (`add_key(2)`, `keyctl(2)`): visible to every process of the user
/// at once, never written to disk, and gone when the machine restarts. A value names one keyring, the user's own
/// (``user``) or one inside it; keys can be given a timeout after which the kernel refuses to read them.
package struct KernelKeyring: Sendable {
    /// A failure of a keyring call, with the errno it gave.
    package struct Failure: Error, CustomStringConvertible {
        package let operation: String
        package let code: Int32
        package var description: String { "\(operation): \(String(cString: strerror(code)))" }
        /// The user's key quota (`/proc/sys/kernel/keys/maxkeys`, `maxbytes`) is used up.
        package var isQuotaExceeded: Bool { code == EDQUOT }
    }

    /// The serial number of this keyring (or a special id such as the user keyring's).
    package let serial: Int32

    private init(serial: Int32) { self.serial = serial }

    /// The user keyring (`@u`): shared by every process of the user, kept until the machine restarts.
    package static var user: KernelKeyring { KernelKeyring(serial: kkeyutils_user_keyring()) }

    /// Whether the kernel offers keyrings to this process (containers may filter the calls out).
    package static var isAvailable: Bool {
        do {
            try SystemCalls.once("keyctl_search") {
                keyctl_search(kkeyutils_user_keyring(), "user", "keychain.probe", 0)
            }
            return true
        } catch {
            return [ENOKEY, EKEYEXPIRED, EKEYREVOKED].contains(error.code)
        }
    }

    // MARK: - Keyrings inside this one

    /// The keyring `description` found from this one, or nil.
    package func keyring(named description: String) -> KernelKeyring? {
        Self.serial(keyctl_search(serial, "keyring", description, 0)).map(KernelKeyring.init(serial:))
    }

    /// Creates a keyring `description` linked into this one. The caller makes sure none exists yet: a second one
    /// would displace the first, and with it the first one's keys.
    package func createKeyring(named description: String) throws -> KernelKeyring {
        let created = try Self.call("add_key keyring") { add_key("keyring", description, nil, 0, serial) }
        return KernelKeyring(serial: created)
    }

    /// The keyrings linked directly into this one whose description starts with `prefix`.
    package func keyrings(prefix: String) -> [(description: String, keyring: KernelKeyring)] {
        linkedSerials().compactMap { child in
            guard let (type, description) = Self.describe(child), type == "keyring", description.hasPrefix(prefix)
            else { return nil }
            return (description, KernelKeyring(serial: child))
        }
    }

    /// Invalidates every key in this keyring (which wipes their payloads for every process at once), then the
    /// keyring itself.
    package func drop() {
        for child in linkedSerials() { invalidate(child) }
        invalidate(serial)
    }

    // MARK: - Keys in this keyring

    /// Stores `payload` under `description`, replacing a key of the same description in place, and clears any
    /// timeout it had. - Returns: the key's serial number.
    @discardableResult
    package func store(_ description: String, payload: UnsafeRawBufferPointer) throws -> Int32 {
        let stored = try Self.call("add_key") {
            add_key("user", description, payload.baseAddress, payload.count, serial)
        }
        // A fresh add of an existing description updates it in place, timeout included; clear any old timeout.
        _ = keyctl_set_timeout(stored, 0)
        return stored
    }

    /// The serial number of the live key with `description`, for repeated reads without a search.
    package func serial(of description: String) -> Int32? {
        Self.serial(keyctl_search(serial, "user", description, 0))
    }

    /// Reads up to `buffer.count` bytes of the key with `serial`; returns the payload length, or nil when the
    /// key no longer exists, expired or was invalidated (one system call).
    package func read(serial key: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        let length = keyctl_read(key, buffer.baseAddress?.assumingMemoryBound(to: CChar.self), buffer.count)
        return length >= 0 ? Int(length) : nil
    }

    /// Makes the key with `serial` expire `seconds` from now (1 or more; the kernel counts 32-bit seconds).
    package func expire(serial key: Int32, after seconds: Int) throws {
        guard seconds > 0, let timeout = UInt32(exactly: seconds) else {
            throw Failure(operation: "keyctl_set_timeout \(seconds) s", code: EINVAL)
        }
        _ = try Self.call("keyctl_set_timeout") { keyctl_set_timeout(key, timeout) }
    }

    /// Removes the key with `description`, if any.
    package func remove(_ description: String) {
        if let key = serial(of: description) { invalidate(key) }
    }

    /// Removes the key with `serial`: invalidation wipes the payload at once for every process; unlinking (the
    /// fallback where invalidation is refused) only drops this keyring's reference.
    package func invalidate(_ key: Int32) {
        if keyctl_invalidate(key) < 0 { _ = keyctl_unlink(key, serial) }
    }

    // MARK: - The user's quota

    /// The user's key count and limit from `/proc/key-users` (`qnkeys/maxkeys`), when it can be read.
    package static func userQuota() -> (keys: Int, limit: Int)? {
        guard let file = fopen("/proc/key-users", "r") else { return nil }
        defer { fclose(file) }
        let uid = "\(getuid()):"
        var line = [CChar](repeating: 0, count: 512)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let fields = text.split(separator: " ", omittingEmptySubsequences: true)
            // "uid: usage nkeys/nikeys qnkeys/maxkeys qnbytes/maxbytes"
            guard fields.count >= 4, fields[0] == uid else { continue }
            let quota = fields[3].split(separator: "/")
            guard quota.count == 2, let keys = Int(quota[0]), let limit = Int(quota[1]) else { return nil }
            return (keys, limit)
        }
        return nil
    }

    // MARK: - Private

    private func linkedSerials() -> [Int32] {
        var buffer: UnsafeMutableRawPointer?
        let length = keyctl_read_alloc(serial, &buffer)
        guard length > 0, let buffer else { return [] }
        defer { free(buffer) }
        let count = Int(length) / MemoryLayout<Int32>.size
        return (0..<count).map { buffer.loadUnaligned(fromByteOffset: $0 * MemoryLayout<Int32>.size, as: Int32.self) }
    }

    /// The type and description of a key ("type;uid;gid;perm;description").
    private static func describe(_ key: Int32) -> (type: String, description: String)? {
        var buffer: UnsafeMutablePointer<CChar>?
        guard keyctl_describe_alloc(key, &buffer) >= 0, let buffer else { return nil }
        defer { free(buffer) }
        let fields = String(cString: buffer).split(separator: ";", maxSplits: 4, omittingEmptySubsequences: false)
        guard fields.count == 5 else { return nil }
        return (String(fields[0]), String(fields[4]))
    }

    /// Makes a keyring call through `SystemCalls`, which captures its errno; the result as a 32-bit serial.
    private static func call<T: BinaryInteger>(_ operation: String, _ body: () -> T) throws(Failure) -> Int32 {
        let result: T
        do { result = try SystemCalls.once(operation, body) } catch {
            throw Failure(operation: operation, code: error.code)
        }
        guard let value = Int32(exactly: result) else { throw Failure(operation: operation, code: ERANGE) }
        return value
    }

    /// A serial number from a call that returns one or -1, when it fits (the kernel's are 32-bit).
    private static func serial<T: BinaryInteger>(_ result: T) -> Int32? {
        result >= 0 ? Int32(exactly: result) : nil
    }
}
