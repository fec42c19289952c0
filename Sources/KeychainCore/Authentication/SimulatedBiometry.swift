import Foundation
import KeychainCrypto
import Synchronization

/// A scriptable biometric sensor, like the iOS Simulator's Face ID / Touch ID menu: enrolled or not, and a
/// queue of the simulated user's reactions (match, no match, cancel, fallback) that prompts consume in order.
/// Five failed matches in a row lock it out until the device passcode is entered. Its state lives in
/// `biometry.json` (0600) in the keychain home, shared by every process of the keychain.
///
/// The two secrets in that file, entangled with the device key, are what biometry-protected items are bound
/// to: the enrollment secret is replaced on every enrollment change, so `biometryCurrentSet` items made
/// before it can never be opened again.
public final class SimulatedBiometry: BiometricSensor {
    private let file: SharedStateFile<BiometryDocument>
    /// The sensor's file, checked on every read of a biometry-protected item: another process may have enrolled.
    private let watch: WatchedFile
    private let deviceKey: SecureBytes
    private let cache = Mutex<BiometrySnapshot?>(nil)

    init(home: URL, deviceKey: SecureBytes) {
        file = SharedStateFile(home: home)
        watch = WatchedFile(path: file.path)
        self.deviceKey = deviceKey
    }

    /// The sensor's current state.
    public func status() throws -> BiometryStatus {
        let snapshot = try current()
        let document = snapshot.document
        return BiometryStatus(
            isAvailable: true, isEnrolled: document.enrolled, isLockedOut: document.isLockedOut,
            failures: document.failures, script: document.script, answersPrompts: !document.script.isEmpty,
            domainState: snapshot.domainState)
    }

    /// Enrolls a (new) finger or face: an enrollment change when one was already enrolled.
    public func enroll() throws {
        try modify { document in
            document.enrolled = true
            document.enrollmentSecret = try Self.freshSecret()
            if document.anySecret == nil { document.anySecret = try Self.freshSecret() }
            document.failures = 0
        }
    }

    /// Removes every enrolled finger or face.
    public func unenroll() throws {
        try modify { document in
            document.enrolled = false
            document.enrollmentSecret = nil
            document.failures = 0
        }
    }

    /// Adds a finger or re-enrolls the face: `evaluatedPolicyDomainState` changes and `biometryCurrentSet`
    /// items become unusable for good. - Throws: `errSecParam` when nothing is enrolled.
    public func changeEnrollment() throws {
        try modify { document in
            guard document.enrolled else { throw KeychainError.param.because("no biometry is enrolled to change") }
            document.enrollmentSecret = try Self.freshSecret()
        }
    }

    /// Queues the simulated user's reaction to a coming biometric prompt.
    public func script(_ outcomes: BiometricOutcome...) throws {
        try modify { document in document.script += outcomes }
    }

    /// Forgets the queued reactions.
    public func clearScript() throws {
        try modify { document in document.script = [] }
    }

    /// Presents a biometric prompt: consumes the next scripted reaction and counts failures.
    /// - Throws: `AuthenticationFailure` (not enrolled, lockout, no match, cancel, fallback; an empty script is
    ///   a user who dismissed the prompt).
    func prompt(reason: String = "") throws {
        var outcome: BiometricOutcome?
        try modify { document in
            guard document.enrolled else { return }
            guard !document.isLockedOut else { return }
            outcome = document.script.isEmpty ? .cancel : document.script.removeFirst()
            switch outcome {
            case .match: document.failures = 0
            case .noMatch: document.failures += 1
            default: break
            }
        }
        switch outcome {
        case .match: return
        case .noMatch: throw AuthenticationFailure.authenticationFailed
        case .cancel: throw AuthenticationFailure.userCancel
        case .fallback: throw AuthenticationFailure.userFallback
        case nil:
            let document = try read()
            throw document.enrolled ? AuthenticationFailure.biometryLockout : AuthenticationFailure.biometryNotEnrolled
        }
    }

    /// Ends a lockout (the device passcode was entered).
    func resetFailures() throws {
        try modify { document in document.failures = 0 }
    }

    /// The enrolled set and its keys as of now (one `fstat` when the file is unchanged).
    func keys() throws -> BiometricKeys {
        let snapshot = try current()
        return BiometricKeys(
            domainState: snapshot.domainState, currentSetKey: snapshot.currentSetKey, anyKey: snapshot.anyKey)
    }

    /// The key `biometryAny` items are bound to; it survives enrollment changes.
    func anyKey() throws -> SecureBytes {
        if let key = try current().anyKey { return key }
        var secret: String?
        try modify { document in
            if document.anySecret == nil { document.anySecret = try Self.freshSecret() }
            secret = document.anySecret
        }
        return try entangle(KeyHierarchy.simulatedBiometryAny, secret ?? "")
    }

    private func domainState(_ document: BiometryDocument) throws -> [UInt8]? {
        guard document.enrolled, let secret = document.enrollmentSecret else { return nil }
        return try entangle(KeyHierarchy.simulatedBiometryDomainState, secret).bytes
    }

    private func entangle(_ label: String, _ secret: String) throws -> SecureBytes {
        try FactorKey.derive(
            deviceKey: deviceKey, label: label, base64Secret: secret, fileName: BiometryDocument.fileName)
    }

    private static func freshSecret() throws -> String {
        Data(try SystemRandom.bytes(32)).base64EncodedString()
    }

    /// The document and its derived keys, re-read only when the file was replaced (by any process).
    private func current() throws -> BiometrySnapshot {
        let identity = watch.identity()
        if let known = cache.withLock({ $0 }), identity != nil, known.identity == identity { return known }
        let document = try read()
        let fresh = BiometrySnapshot(
            identity: identity, document: document, domainState: try domainState(document),
            currentSetKey: try document.enrollmentSecret.map {
                try entangle(KeyHierarchy.simulatedBiometryCurrentSet, $0)
            },
            anyKey: try document.anySecret.map { try entangle(KeyHierarchy.simulatedBiometryAny, $0) })
        cache.withLock { $0 = fresh }
        return fresh
    }

    private func read() throws -> BiometryDocument { try file.read() }

    private func modify(_ body: (inout BiometryDocument) throws -> Void) throws { try file.modify(body) }
}

/// The simulated sensor's document as last read, with the file identity it was read at and the keys derived
/// from it, so that reads within a reused context do not re-read and re-derive them while the file is unchanged.
struct BiometrySnapshot: Sendable {
    let identity: SecretFile.FileIdentity?
    let document: BiometryDocument
    let domainState: [UInt8]?
    let currentSetKey: SecureBytes?
    let anyKey: SecureBytes?
}

/// The simulated biometric sensor's state, kept in `biometry.json` (0600) in the keychain home so that every
/// process of the keychain, tests and the `security biometry` command see the same sensor.
struct BiometryDocument: Codable, Equatable, SharedStateDocument {
    static let fileName = "biometry.json"
    /// Failed matches in a row after which biometry locks out (Apple: five).
    static let lockoutThreshold = 5

    var enrolled = false
    /// Random, replaced on every enrollment change: what `biometryCurrentSet` items are bound to.
    var enrollmentSecret: String?
    /// Random, created once and kept across enrollment changes: what `biometryAny` items are bound to.
    var anySecret: String?
    var failures = 0
    /// The simulated user's next reactions at biometric prompts, oldest first.
    var script: [BiometricOutcome] = []

    var isLockedOut: Bool { failures >= Self.lockoutThreshold }
}
