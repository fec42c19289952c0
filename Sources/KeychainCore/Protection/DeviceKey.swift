import Foundation
import KeychainCrypto

/// The device key: 32 random bytes in a 0600 file of the keychain home, standing in for the hardware key an
/// Apple device fuses into its Secure Enclave. A file is only as safe as its permissions.
enum DeviceKey {
    static let fileName = "device.key"

    /// Loads the device key of `home`, creating it on first use.
    static func loadOrCreate(home: URL) throws -> SecureBytes {
        let url = home.appendingPathComponent(fileName)
        var stored = try SecretFile.read(url)
        if stored == nil {
            var fresh = try SystemRandom.bytes(32)
            defer { wipe(&fresh) }
            try SecretFile.createExclusively(url, bytes: fresh)
            // Read back: another process may have created it first, and its key is the one on disk.
            stored = try SecretFile.read(url)
        }
        // The array read is wiped itself: a second name for it would make the wipe copy it first and clear the
        // copy.
        defer { if stored != nil { wipe(&stored!) } }
        guard stored?.count == 32 else {
            throw KeychainError.notAvailable.because("the device key file is damaged")
        }
        return SecureBytes(stored!)
    }
}
