#if canImport(CTSS2)
    import CTSS2
    import KeychainTestSupport
    import Testing

    @testable import TPMEnclave

    /// The TPM's dictionary-attack lockout is one state for the whole TPM: any process that may use it can cause it
    /// with wrong auth values for an object of its own. Keys made under the lockout-exempt primary (noDA, as the
    /// keys themselves) keep working; keys of older releases, under the primary without noDA, wait for the recovery
    /// time with errSecInteractionNotAllowed.
    @Suite(.serialized, .enabled(if: SoftwareTPM.isInstalled, "swtpm is not installed"))
    struct TPMLockoutTests {
        @Test func keysWorkWhileAnotherTPMUserHasLockedTheTPMOut() throws {
            let tpm = try SoftwareTPM()
            let connection = try TPMConnection(tcti: tpm.tcti)
            let digest = [UInt8](repeating: 7, count: 32)
            let authorization = [UInt8](repeating: 9, count: 32)
            let current = try connection.createKey(use: .signing, authorization: authorization)
            let older = try connection.createKey(use: .signing, authorization: authorization, parent: .legacy)
            #expect(current.parent == .lockoutExempt)
            // The blob names its parent, and keeps naming it when stored and read back.
            let reread = try TPMKeyBlob(serialized: older.serialized, use: .signing)
            #expect(reread.parent == .legacy)
            #expect(try TPMKeyBlob(serialized: current.serialized, use: .signing).parent == .lockoutExempt)
            #expect(try connection.sign(digest: digest, with: reread, authorization: authorization).count == 64)

            try Self.lockOut(tcti: tpm.tcti)

            #expect(try connection.sign(digest: digest, with: current, authorization: authorization).count == 64)
            #expect(try connection.createKey(use: .signing).parent == .lockoutExempt)
            do {
                _ = try connection.sign(digest: digest, with: reread, authorization: authorization)
                Issue.record("a key under the primary without noDA signed in lockout: the TPM was not locked out")
            } catch {
                #expect(error == .tpm(operation: "Load", code: 0x921))
                #expect(error.status == -25308)
            }
            // An answer of the TPM, not a broken connection: nothing connected anew.
            #expect(connection.connectionsMade == 1)
        }

        /// As another TPM user: one wrong auth value allowed before lockout, then one wrong auth value presented
        /// for a DA-protected primary of its own.
        private static func lockOut(tcti: String) throws {
            var tctiContext: OpaquePointer? = nil
            try #require(Tss2_TctiLdr_Initialize(tcti, &tctiContext) == 0)
            var context: OpaquePointer? = nil
            try #require(Esys_Initialize(&context, tctiContext, nil) == 0)
            defer {
                Esys_Finalize(&context)
                Tss2_TctiLdr_Finalize(&tctiContext)
            }
            let parameters = Esys_DictionaryAttackParameters(
                context, ESYS_TR(ESYS_TR_RH_LOCKOUT), ESYS_TR(ESYS_TR_PASSWORD), ESYS_TR(ESYS_TR_NONE),
                ESYS_TR(ESYS_TR_NONE), 1, 1000, 1000)
            try #require(parameters == 0)
            var template = TPM2B_PUBLIC()
            kchtpm_primary_template(&template, 0)
            var sensitive = TPM2B_SENSITIVE_CREATE()
            sensitive.sensitive.userAuth.size = 2
            withUnsafeMutableBytes(of: &sensitive.sensitive.userAuth.buffer) { $0.copyBytes(from: Array("pw".utf8)) }
            var outside = TPM2B_DATA()
            var pcrs = TPML_PCR_SELECTION()
            var own: ESYS_TR = 0
            let made = Esys_CreatePrimary(
                context, ESYS_TR(ESYS_TR_RH_OWNER), ESYS_TR(ESYS_TR_PASSWORD), ESYS_TR(ESYS_TR_NONE),
                ESYS_TR(ESYS_TR_NONE), &sensitive, &template, &outside, &pcrs, &own, nil, nil, nil, nil)
            try #require(made == 0)
            defer { _ = Esys_FlushContext(context, own) }
            var wrong = TPM2B_AUTH()
            wrong.size = 5
            withUnsafeMutableBytes(of: &wrong.buffer) { $0.copyBytes(from: Array("wrong".utf8)) }
            try #require(Esys_TR_SetAuth(context, own, &wrong) == 0)
            var keyTemplate = TPM2B_PUBLIC()
            kchtpm_key_template(&keyTemplate, 1)
            var keySensitive = TPM2B_SENSITIVE_CREATE()
            var outPrivate: UnsafeMutablePointer<TPM2B_PRIVATE>? = nil
            var outPublic: UnsafeMutablePointer<TPM2B_PUBLIC>? = nil
            let refused = Esys_Create(
                context, own, ESYS_TR(ESYS_TR_PASSWORD), ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE),
                &keySensitive, &keyTemplate, &outside, &pcrs, &outPrivate, &outPublic, nil, nil, nil)
            Esys_Free(outPrivate)
            Esys_Free(outPublic)
            // TPM_RC_AUTH_FAIL for the first session (0x98E): counted towards the lockout.
            try #require(refused == 0x98E, "Create answered \(refused)")
        }
    }
#endif
