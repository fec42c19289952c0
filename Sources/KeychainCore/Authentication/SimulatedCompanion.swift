import Foundation
import KeychainCrypto

/// A scriptable companion device standing in for a paired Apple Watch (`.watch`, the LAPolicy watch
/// policies): paired or not, and a queue of the simulated user's reactions on it (approve, deny, cancel) that
/// requests consume in order; an empty queue is a user who lets the request go (cancel). Its state lives in
/// `companion.json` (0600) in the keychain home, shared by every process of the keychain.
///
/// The secret in that file, entangled with the device key, is what `.watch` items are bound to. It is made
/// once and kept when the companion is unpaired, so a companion paired again opens the same items.
public final class SimulatedCompanion: Sendable {
    private let file: SharedStateFile<CompanionDocument>
    private let deviceKey: SecureBytes

    init(home: URL, deviceKey: SecureBytes) {
        file = SharedStateFile(home: home)
        self.deviceKey = deviceKey
    }

    /// The companion's current state.
    public func status() throws -> CompanionStatus {
        let document = try read()
        return CompanionStatus(isPaired: document.paired, script: document.script)
    }

    /// Pairs the companion.
    public func pair() throws {
        try modify { document in
            document.paired = true
            if document.secret == nil { document.secret = try Self.freshSecret() }
        }
    }

    /// Unpairs the companion; queued reactions are dropped.
    public func unpair() throws {
        try modify { document in
            document.paired = false
            document.script = []
        }
    }

    /// Queues the simulated user's reaction to a coming request on the companion.
    public func script(_ outcomes: CompanionOutcome...) throws {
        try modify { document in document.script += outcomes }
    }

    /// Forgets the queued reactions.
    public func clearScript() throws {
        try modify { document in document.script = [] }
    }

    /// Asks the companion for approval: consumes the next scripted reaction.
    /// - Throws: `AuthenticationFailure` (`.watchNotAvailable` when not paired, `.authenticationFailed` on deny,
    ///   `.userCancel` on cancel or an empty queue).
    func prompt() throws {
        var outcome: CompanionOutcome?
        try modify { document in
            guard document.paired else { return }
            outcome = document.script.isEmpty ? .cancel : document.script.removeFirst()
        }
        switch outcome {
        case .approve: return
        case .deny: throw AuthenticationFailure.authenticationFailed
        case .cancel: throw AuthenticationFailure.userCancel
        case nil: throw AuthenticationFailure.watchNotAvailable
        }
    }

    /// The key `.watch` items are bound to (made on first use, paired or not, as an add needs no companion).
    func key() throws -> SecureBytes {
        var secret = try read().secret
        if secret == nil {
            try modify { document in
                if document.secret == nil { document.secret = try Self.freshSecret() }
                secret = document.secret
            }
        }
        guard let secret else { throw KeychainError.decode.because("\(CompanionDocument.fileName) is damaged") }
        return try FactorKey.derive(
            deviceKey: deviceKey, label: KeyHierarchy.companion, base64Secret: secret,
            fileName: CompanionDocument.fileName)
    }

    private static func freshSecret() throws -> String {
        Data(try SystemRandom.bytes(32)).base64EncodedString()
    }

    private func read() throws -> CompanionDocument { try file.read() }

    private func modify(_ body: (inout CompanionDocument) throws -> Void) throws { try file.modify(body) }
}

/// A scripted reaction of the simulated user on the paired companion (a watch) when it asks for approval.
public enum CompanionOutcome: String, Sendable, Hashable, Codable, CaseIterable {
    /// The user approves (double-clicks the side button).
    case approve
    /// The user declines.
    case deny
    /// The user dismisses the request.
    case cancel
}

/// What `security companion status` and `LAContext` see of the simulated companion.
public struct CompanionStatus: Sendable, Equatable {
    public let isPaired: Bool
    /// The queued reactions, oldest first.
    public let script: [CompanionOutcome]

    /// Every field as given (a daemon's client rebuilds what the daemon reported).
    package init(isPaired: Bool, script: [CompanionOutcome]) {
        self.isPaired = isPaired
        self.script = script
    }
}

/// The simulated companion's state, kept in `companion.json` (0600) in the keychain home so that every process
/// of the keychain, tests and the `security companion` command see the same companion.
struct CompanionDocument: Codable, Equatable, SharedStateDocument {
    static let fileName = "companion.json"

    var paired = false
    /// Random, created once and kept across pairings: what `.watch` items are bound to.
    var secret: String?
    /// The simulated user's next reactions on the companion, oldest first.
    var script: [CompanionOutcome] = []
}
