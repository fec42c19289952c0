import Testing

@testable import KeychainLint

/// KL303 when biometryAny is added to a flags variable after its declaration (reviewer's case c6).
@Suite struct FlagsInsertTests {
    @Test func insertedBiometryAny() {
        let source = """
            import Security
            func c() -> SecAccessControl? {
                var flags: SecAccessControlCreateFlags = [.privateKeyUsage]
                flags.insert(.biometryAny)
                return SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, nil)
            }
            """
        #expect(locations(of: "KL303", in: source) == ["4:18"])
    }

    /// Inserting into another set, or the current-set flag, is silent.
    @Test func otherInsertsAreSilent() {
        let source = """
            import Security
            func c(modes: inout Set<Mode>) -> SecAccessControl? {
                var flags: SecAccessControlCreateFlags = [.privateKeyUsage]
                flags.insert(.biometryCurrentSet)
                modes.insert(.biometryAny)
                return SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, nil)
            }
            """
        #expect(locations(of: "KL303", in: source).isEmpty)
    }
}
