internal import CKeyutils
#if canImport(Glibc)
import Glibc
#endif

/// Secrets held by the Linux kernel in the user's keyring (`add_key(2)`, `keyctl(2)`): visible to every
/// process of the user at once, never written to disk, and gone when the machine restarts. Keys can be given a
/// timeout after which the kernel refuses to read them.
package struct KernelKeyring: Sendable {
    /// A failure of a keyring call, with the errno it gave.
    package struct Failure: Error, CustomStringConvertible {
        package let operation: String
        package let code: Int32
        package var description: String { "\(operation): \(String(cString: strerror(code)))" }
    }

    package init() {}

    /// Whether the kernel offers keyrings to this process (containers may filter the calls out).
    package static var isAvailable: Bool {
        let probe = keyctl_search(kkeyutils_user_keyring(), "user", "keychain.probe", 0)
        return probe >= 0 || errno == ENOKEY || errno == EKEYEXPIRED || errno == EKEYREVOKED
    }

    /// Stores `payload` under `description`, replacing a key of the same description.
    package func store(_ description: String, payload: UnsafeRawBufferPointer) throws {
        let serial = add_key("user", description, payload.baseAddress, payload.count, kkeyutils_user_keyring())
        guard serial >= 0 else { throw Failure(operation: "add_key", code: errno) }
        // A fresh add of an existing description updates it in place, timeout included; clear any old timeout.
        _ = keyctl_set_timeout(serial, 0)
    }

    /// The serial number of the live key with `description`, for repeated reads without a search.
    package func serial(of description: String) -> Int32? { find(description) }

    /// Reads up to `buffer.count` bytes of the key with `serial`; returns the payload length, or nil when the
    /// key no longer exists, expired or was invalidated (one system call).
    package func read(serial: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        let length = keyctl_read(serial, buffer.baseAddress?.assumingMemoryBound(to: CChar.self), buffer.count)
        return length >= 0 ? Int(length) : nil
    }

    /// Whether a live key with `description` exists.
    package func contains(_ description: String) -> Bool {
        guard let serial = find(description) else { return false }
        return keyctl_read(serial, nil, 0) >= 0
    }

    /// Makes the key expire `seconds` from now; 0 removes it at once.
    package func expire(_ description: String, after seconds: Int) throws {
        guard let serial = find(description) else { return }
        if seconds <= 0 {
            remove(serial)
        } else if keyctl_set_timeout(serial, UInt32(seconds)) < 0 {
            throw Failure(operation: "keyctl_set_timeout", code: errno)
        }
    }

    /// Removes the key with `description`, if any.
    package func remove(_ description: String) {
        if let serial = find(description) { remove(serial) }
    }

    private func remove(_ serial: Int32) {
        // Invalidation wipes the payload at once for every process; unlinking only drops the reference.
        if keyctl_invalidate(serial) < 0 { _ = keyctl_unlink(serial, kkeyutils_user_keyring()) }
    }

    private func find(_ description: String) -> Int32? {
        let serial = keyctl_search(kkeyutils_user_keyring(), "user", description, 0)
        return serial >= 0 ? Int32(serial) : nil
    }
}
