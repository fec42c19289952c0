import Foundation
import KeychainCrypto
import Testing

@testable import KeychainCore

/// No two derivations share a label or a domain byte (the committed format-1 home, opened by
/// `ConstraintBindingTests`, pins their bytes: a changed label would make it unreadable).
@Suite struct KeyHierarchyTests {
    @Test func labelsAndDomainBytesAreDistinct() {
        let labels = KeyHierarchy.allLabels
        #expect(Set(labels).count == labels.count)
        // No label is a prefix of another, so label ‖ 0 ‖ input never collides across uses either.
        for label in labels {
            #expect(!labels.contains { $0 != label && $0.hasPrefix(label + "\0") })
        }
        let domains = KeyHierarchy.DigestDomain.allCases.map(\.rawValue)
        #expect(Set(domains).count == domains.count)
        let parts = KeyHierarchy.ItemPart.allCases.map(\.rawValue)
        #expect(Set(parts).count == parts.count)
    }
}

/// Derivations give the keys they always gave: homes made before must still unlock.
@Suite struct DerivationStabilityTests {
    /// The value the earlier implementation gave, and Python's `hashlib.pbkdf2_hmac` then `hmac` give: HMAC-SHA-256
    /// under the device key of "keychain passcode key v1" ‖ 0 ‖ PBKDF2-HMAC-SHA-256(passcode, salt, iterations).
    @Test func thePasscodeKeyIsUnchanged() throws {
        let key = try PasscodeKDF.derive(
            passcode: SecureBytes(Array("1234".utf8)), salt: [UInt8](repeating: 7, count: 16), iterations: 1_000,
            deviceKey: SecureBytes([UInt8](repeating: 9, count: 32)))
        #expect(hex(key.bytes) == "8a01931dc3b52df06487eb7bfb6b265bbbdb1f7a6b701ef4929aa18f30f3fdbd")
    }

    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}
