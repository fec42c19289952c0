import Testing

@testable import EnclaveKeys
@testable import Security

/// Which failures of an enclave key's load SecKey reports as errSecDecode (the key is lost for this machine): only
/// a refusal of the stored form itself, never a TPM that is busy, full, locked out or out of reach.
struct SecKeyEnclaveRefusalTests {
    static func refused(_ status: Int32) -> OSStatus {
        SecKeyEnclaveLoader.refusal(.status(status, reason: "r")).status
    }

    @Test func onlyAnUndecodableStoredFormIsErrSecDecode() {
        #expect(Self.refused(-26275) == errSecDecode)
        #expect(Self.refused(-50) == errSecDecode)
        #expect(Self.refused(-25291) == errSecNotAvailable)
        #expect(Self.refused(-25308) == errSecInteractionNotAllowed)
        #expect(Self.refused(-4) == errSecUnimplemented)
        // Raw TSS2 codes no longer reach here; were one to, it would not mean "another TPM".
        #expect(Self.refused(0x902) != errSecDecode)
        #expect(Self.refused(0x921) != errSecDecode)
    }
}
