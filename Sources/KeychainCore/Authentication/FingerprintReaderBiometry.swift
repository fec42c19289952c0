import Foundation
import KeychainCrypto

/// The machine's fingerprint reader (fprintd) as the keychain's biometric sensor.
///
/// fprintd holds no secret an item could be bound to, so the binding is the keychain's own, as for the simulated
/// sensor: an enrollment secret in `fingerprint.json` (0600) in the keychain home, replaced whenever the set of
/// fingers fprintd reports for the user changes (a finger added or removed; all removed deletes it), and
/// entangled with the device key. `biometryCurrentSet` items made before a change can never be opened again.
/// fprintd names fingers, not templates, so re-enrolling the same finger is not seen as a change. `biometryAny`
/// items use the "any" secret they share with the simulated sensor. A reader that is unplugged or a fprintd
/// that does not answer leaves the binding as it is.
final class FingerprintReaderBiometry: BiometricSensor {
    private let reader: SystemFingerprintReader
    private let file: SharedStateFile<FingerprintDocument>
    private let simulated: SimulatedBiometry
    private let deviceKey: SecureBytes

    init(reader: SystemFingerprintReader, home: URL, deviceKey: SecureBytes, simulated: SimulatedBiometry) {
        self.reader = reader
        file = SharedStateFile(home: home)
        self.deviceKey = deviceKey
        self.simulated = simulated
    }

    func status() throws -> BiometryStatus {
        let (enrollment, document) = try synchronized()
        return BiometryStatus(
            isAvailable: enrollment != nil, isEnrolled: !(enrollment?.fingers.isEmpty ?? true), isLockedOut: false,
            failures: 0, script: [], answersPrompts: true, domainState: try domainState(document))
    }

    func prompt(reason: String) throws {
        try reader.verify(reason: reason).requireSuccess()
    }

    /// fprintd keeps its own count of failed matches.
    func resetFailures() throws {}

    func keys() throws -> BiometricKeys {
        let (_, document) = try synchronized()
        return BiometricKeys(
            domainState: try domainState(document),
            currentSetKey: try document.enrollmentSecret.map { try entangle(KeyHierarchy.fingerprintCurrentSet, $0) },
            anyKey: try simulated.anyKey())
    }

    func anyKey() throws -> SecureBytes {
        try simulated.anyKey()
    }

    /// fprintd's enrollment now, with the document brought in line with it.
    private func synchronized() throws -> (SystemFingerprintReader.Enrollment?, FingerprintDocument) {
        let current = try file.read()
        guard let enrollment = try reader.enrollment() else { return (nil, current) }
        // Base64, as the document's secrets are: unpadded hex digits would let two digests read alike.
        let set = Data(
            try entangle(
                KeyHierarchy.fingerprintEnrolledSet,
                enrollment.device + "\n" + enrollment.fingers.joined(separator: ",")
            ).bytes
        ).base64EncodedString()
        if current.enrolledSet == set { return (enrollment, current) }
        var changed = current
        try file.modify { document in
            if document.enrolledSet != set {
                document.enrolledSet = set
                document.enrollmentSecret =
                    enrollment.fingers.isEmpty ? nil : Data(try SystemRandom.bytes(32)).base64EncodedString()
            }
            changed = document
        }
        return (enrollment, changed)
    }

    private func domainState(_ document: FingerprintDocument) throws -> [UInt8]? {
        try document.enrollmentSecret.map { try entangle(KeyHierarchy.fingerprintDomainState, $0).bytes }
    }

    /// `value` goes in as UTF-8 text: an enrollment secret as its Base64 text, as it always has (keys must not change).
    private func entangle(_ label: String, _ value: String) throws -> SecureBytes {
        var text = Array(value.utf8)
        defer { wipe(&text) }
        return try text.withUnsafeBytes { try FactorKey.derive(deviceKey: deviceKey, label: label, secret: $0) }
    }
}

/// The keychain's binding to the fingerprint reader's enrollment, in `fingerprint.json`.
struct FingerprintDocument: Codable, Equatable, SharedStateDocument {
    static let fileName = "fingerprint.json"
    /// A keyed digest of the reader and its enrolled fingers when the secret was made.
    var enrolledSet: String?
    /// Random, replaced whenever the enrolled set changes: what `biometryCurrentSet` items are bound to.
    var enrollmentSecret: String?
}
