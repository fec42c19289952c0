import Foundation
import KeychainCore

/// The keybag file: the input replaces the keybag of a home whose device key is fixed (so seed keybags written
/// under that key open), then the keychain is opened, asked for its state, unlocked with the seed passcode,
/// locked and "restarted". The unlock is skipped when the keybag asks for more than
/// ``KeybagFuzzing/maximumIterations`` KDF rounds, which the fuzzer would only see as a timeout.
extension FuzzTarget {
    static let keybag = FuzzTarget(
        name: "keybag",
        summary: "KeybagDocument.decode of the input, then open, info, lock state, lock and restart on it"
    ) { bytes in
        _ = try? FuzzEntryPoints.reencodeKeybag(bytes)
        let home = KeybagFuzzing.home
        KeybagFuzzing.write(bytes, to: home.appendingPathComponent("keybag"))
        let keychain: Keychain
        do {
            keychain = try Keychain(configuration: FuzzKeychain.configuration(home: home))
        } catch {
            fuzzNote("open failed: \(error)")
            return
        }
        defer {
            keychain.simulateRestart()  // drops this home's keys from the kernel keyring
            keychain.close()
        }
        guard let info = try? keychain.info() else { return }
        fuzzNote("opened: \(info)")
        // The seed keybags' passcode; tried only when a derivation is cheap (a keybag may ask for any cost).
        if let iterations = info.kdfIterations, iterations <= KeybagFuzzing.maximumIterations {
            try? keychain.unlock(passcode: Secret(Array("1234".utf8)))
        }
        _ = try? keychain.lockState
        try? keychain.lock()
        _ = try? keychain.lockState
        let query = ItemQuery(itemClass: .genericPassword, limit: .all, returns: [.data])
        _ = try? keychain.copyMatching(query)
    }
}

enum KeybagFuzzing {
    /// The device key of the keybag target's home; the seed keybags in Fuzz/Corpus/keybag are wrapped under it.
    static let deviceKey = [UInt8](repeating: 0x4B, count: 32)
    static let maximumIterations = 20_000

    static let home: URL = {
        let home = FuzzKeychain.makeDirectory("keybag")
        write(deviceKey, to: home.appendingPathComponent("device.key"))
        return home
    }()

    /// Replaces `url` with `bytes`, owner-only, as a new file (the keychain notices a replaced keybag).
    static func write(_ bytes: [UInt8], to url: URL) {
        let temporary = url.appendingPathExtension("new")
        guard
            FileManager.default.createFile(
                atPath: temporary.path, contents: Data(bytes), attributes: [.posixPermissions: 0o600]),
            rename(temporary.path, url.path) == 0
        else { fatalError("cannot write \(url.path)") }
    }
}
