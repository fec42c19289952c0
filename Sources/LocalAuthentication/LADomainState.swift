import Foundation
import KeychainCrypto

/// A kind of companion device that can authenticate the user (iOS 18, macOS 15). Here the companion is the
/// simulated watch (`security companion …`).
public enum LACompanionType: Int, Hashable, Sendable {
    /// A paired Apple Watch.
    case watch = 1
    /// A paired Mac.
    case mac = 2
    /// A paired Vision Pro.
    case vision = 4
}

/// The state of the authentication domains as `LAContext.domainState` gives it (iOS 18, macOS 15): the enrolled
/// biometry and the paired companions, each with a hash that changes when they change.
open class LADomainState: NSObject, @unchecked Sendable {  // safe: immutable
    /// The biometric domain.
    public let biometry: LADomainStateBiometry
    /// The companion domain.
    public let companion: LADomainStateCompanion
    /// One hash of the two domains' hashes; nil when neither has one.
    public let stateHash: Data?

    init(biometry: LADomainStateBiometry, companion: LADomainStateCompanion) {
        self.biometry = biometry
        self.companion = companion
        stateHash = Self.combined([
            ("biometry", biometry.stateHash), ("companion", companion.stateHash),
        ])
    }

    /// SHA-256 over each present hash with its domain's name; nil when none is present.
    static func combined(_ parts: [(name: String, hash: Data?)]) -> Data? {
        let present = parts.filter { $0.hash != nil }
        guard !present.isEmpty else { return nil }
        var input: [UInt8] = []
        for part in present { input += Array(part.name.utf8) + [0] + Array(part.hash ?? Data()) }
        return (try? SHA256.hash(input)).map { Data($0) }
    }
}

/// The biometric domain of `LADomainState`.
open class LADomainStateBiometry: NSObject, @unchecked Sendable {  // safe: immutable
    /// The kind of biometry the device has.
    public let biometryType: LABiometryType
    /// Identifies the enrolled set (the value `evaluatedPolicyDomainState` gives); nil when nothing is enrolled.
    public let stateHash: Data?

    init(biometryType: LABiometryType, stateHash: Data?) {
        self.biometryType = biometryType
        self.stateHash = stateHash
    }
}

/// The companion domain of `LADomainState`.
open class LADomainStateCompanion: NSObject, @unchecked Sendable {  // safe: immutable
    /// The kinds of companion paired now.
    public let availableCompanionTypes: Set<LACompanionType>
    private let hashes: [LACompanionType: Data]

    /// One hash of the paired companions; nil when none is paired.
    public let stateHash: Data?

    init(hashes: [LACompanionType: Data]) {
        self.hashes = hashes
        availableCompanionTypes = Set(hashes.keys)
        stateHash = LADomainState.combined(
            hashes.sorted { $0.key.rawValue < $1.key.rawValue }.map { ("\($0.key.rawValue)", $0.value) })
    }

    /// The hash of the companions of one kind; nil when none of that kind is paired.
    public func stateHash(for companionType: LACompanionType) -> Data? { hashes[companionType] }

    /// The simulated watch's hash. There is one simulated watch, so the paired set is that watch or nothing: its
    /// hash is the same whenever it is paired, and there is none while it is not.
    static let simulatedWatchHash = Data((try? SHA256.hash(Array("keychain simulated watch v1".utf8))) ?? [])
}
