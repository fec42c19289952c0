import Foundation
import KeychainCrypto

/// The class keys a passcode set, change or removal renews, and the retired keys older rows still open under.
extension ProtectionState {
    /// Classes whose keys a passcode set, change or removal makes anew, so that an older copy of the keybag (one
    /// from before the passcode was set opens without it) opens none of the items written or rewrapped since.
    /// WhenPasscodeSetThisDeviceOnly is made at a set and destroyed at a removal; at a change it is renewed like
    /// the others, and the key devicePasscode constraints are bound to stays that of the set
    /// (``KeybagDocument/passcodeConstraintRoot``): the envelopes bound to it are sealed under item keys, which the
    /// renewal reaches.
    static let renewedClasses: [Accessibility] = [
        .whenUnlocked, .whenUnlockedThisDeviceOnly, .afterFirstUnlock, .afterFirstUnlockThisDeviceOnly,
        .whenPasscodeSetThisDeviceOnly,
    ]

    /// Replaces the keys of ``renewedClasses`` in `keys` by new ones; each old key joins its class's retired
    /// keys, which are rewrapped under the new key (a retired key that no longer unwraps was damaged and goes).
    static func renew(_ keys: inout [Accessibility: SecureBytes], in document: inout KeybagDocument) throws {
        for protection in renewedClasses {
            guard let old = keys[protection] else { continue }
            let new = try SystemRandom.key()
            let oldKey = try AESKeyWrapper(kek: old)
            let newKey = try AESKeyWrapper(kek: new)
            var retired = [try newKey.wrap(old)]
            for wrapped in document.retired(protection) {
                guard let older = try? oldKey.unwrap(wrapped) else { continue }
                retired.append(try newKey.wrap(older))
            }
            document.setRetired(protection, retired)
            if protection == .whenPasscodeSetThisDeviceOnly {
                document.wrappedPasscodeConstraintRoot = try newKey.wrap(
                    try passcodeConstraintRoot(in: document, classKey: old))
            }
            keys[protection] = new
        }
        document.unfinishedRenewal = Data(try SystemRandom.bytes(16)).base64EncodedString()
    }

    /// The retired keys of `protection`, newest first, opened with its current key `currentKey`.
    func retiredClassKeys(_ protection: Accessibility, currentKey: AESKeyWrapper) throws -> [AESKeyWrapper] {
        try current().document.retired(protection).compactMap { wrapped in
            guard let key = try? currentKey.unwrap(wrapped) else { return nil }
            return try AESKeyWrapper(kek: key)
        }
    }

    /// The id of a renewal of the class keys whose items may not all be resealed yet.
    var unfinishedRenewal: String? {
        get throws { try current().document.unfinishedRenewal }
    }

    /// Records that every item of the renewed classes is sealed under the keys of renewal `id` (a later renewal's
    /// record stays).
    func finishRenewal(_ id: String) throws {
        try modify { document in
            if document.unfinishedRenewal == id { document.unfinishedRenewal = nil }
        }
    }
}
