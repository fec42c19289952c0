import Foundation
import KeychainCrypto

/// The class keys of the seven protection classes, each wrapped (RFC 3394) by the device key.
///
/// File format (JSON, version 1): `{"format":1,"passcode":null,"classes":{"ak":"<base64>",…}}`. A passcode,
/// when set, will add a KDF description under "passcode" and a second wrapping of the A and C class keys;
/// ThisDeviceOnly keys are only ever wrapped by the device key.
struct Keybag {
    static let fileName = "keybag"
    static let deviceKeyFileName = "device.key"

    /// Unwrapped class keys by protection class, ready to wrap item keys; a missing key means the class is
    /// not available now.
    let classKeys: [Accessibility: AESKeyWrapper]
    /// The key under which attribute values are digested for lookups.
    let indexKey: SecureBytes
    /// Whether a passcode protects the A and C classes.
    let hasPasscode: Bool

    /// Loads the keybag of `home`, creating the device key and the keybag on first use.
    static func open(home: URL) throws -> Keybag {
        try SecretFile.createDirectory(home)
        let deviceKey = try loadOrCreateDeviceKey(home.appendingPathComponent(deviceKeyFileName))
        let file = home.appendingPathComponent(fileName)
        if try SecretFile.read(file) == nil {
            try SecretFile.createExclusively(file, bytes: try freshKeybag(deviceKey: deviceKey))
        }
        guard let bytes = try SecretFile.read(file) else { throw KeychainError.notAvailable.because("keybag missing") }
        return try decode(bytes, deviceKey: deviceKey)
    }

    private static func loadOrCreateDeviceKey(_ url: URL) throws -> SecureBytes {
        if try SecretFile.read(url) == nil {
            var fresh = try SystemRandom.bytes(32)
            defer { wipe(&fresh) }
            try SecretFile.createExclusively(url, bytes: fresh)
        }
        guard var bytes = try SecretFile.read(url), bytes.count == 32 else {
            throw KeychainError.notAvailable.because("the device key file is damaged")
        }
        defer { wipe(&bytes) }
        return SecureBytes(bytes)
    }

    private static func freshKeybag(deviceKey: SecureBytes) throws -> [UInt8] {
        var classes: [String: String] = [:]
        for protection in Accessibility.allCases {
            classes[protection.rawValue] = Data(try AESKeyWrap.wrap(try SystemRandom.key(), kek: deviceKey))
                .base64EncodedString()
        }
        let document: [String: Any] = ["format": 1, "passcode": NSNull(), "classes": classes]
        return Array(try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]))
    }

    private static func decode(_ bytes: [UInt8], deviceKey: SecureBytes) throws -> Keybag {
        guard let document = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
            document["format"] as? Int == 1, let classes = document["classes"] as? [String: String]
        else { throw KeychainError.notAvailable.because("the keybag file is damaged or of an unknown format") }
        var keys: [Accessibility: AESKeyWrapper] = [:]
        for protection in Accessibility.allCases {
            guard let encoded = classes[protection.rawValue], let wrapped = Data(base64Encoded: encoded) else {
                throw KeychainError.notAvailable.because("the keybag has no key for class \(protection.rawValue)")
            }
            do {
                keys[protection] = try AESKeyWrapper(kek: AESKeyWrap.unwrap(Array(wrapped), kek: deviceKey))
            } catch {
                throw KeychainError.notAvailable.because("the keybag does not belong to this device key")
            }
        }
        let hasPasscode = !(document["passcode"] is NSNull || document["passcode"] == nil)
        // A passcode turns off the passcode-less availability of the A and C classes; that is the data
        // protection work, so such a keybag is refused rather than half understood.
        guard !hasPasscode else { throw KeychainError.unimplemented.because("keybags with a passcode") }
        keys[.whenPasscodeSetThisDeviceOnly] = nil  // akpu exists only while a passcode is set
        let indexKey = try KeyDerivation.hkdfSHA256(
            key: deviceKey, salt: Array("keychain".utf8), info: Array("attribute index key v1".utf8))
        return Keybag(classKeys: keys, indexKey: indexKey, hasPasscode: hasPasscode)
    }
}
