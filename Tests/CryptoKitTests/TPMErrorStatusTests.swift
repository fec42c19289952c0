import Testing

@testable import EnclaveKeys
@testable import TPMEnclave

/// The OSStatus of each kind of TPM failure: only a Load's refusal of the blob says the key is lost (errSecDecode).
struct TPMErrorStatusTests {
    static func status(_ operation: String, _ code: UInt32) -> Int32 {
        TPMError.tpm(operation: operation, code: code).status
    }

    @Test func onlyALoadRefusingTheBlobMeansAnotherTPM() {
        #expect(Self.status("Load", 0x1DF) == -26275)  // TPM_RC_INTEGRITY, parameter 1
        #expect(Self.status("Load", 0x1E5) == -26275)  // TPM_RC_BINDING, parameter 1
        #expect(Self.status("Load", 0x18B) == -25291)  // TPM_RC_HANDLE, handle 1: the parent, not the blob
        #expect(Self.status("CreatePrimary", 0x185) == -25291)  // TPM_RC_HIERARCHY, handle 1: disabled
        #expect(Self.status("Sign", 0x1DF) == -50)  // the input, not the key
        #expect(Self.status("ECDH_ZGen", 0x2E7) == -50)  // TPM_RC_ECC_POINT, parameter 2
    }

    @Test func aBusyFullOrUnreachableTPMIsNotAvailable() {
        for code: UInt32 in [0x902, 0x903, 0x922, 0x908, 0x90A] {  // object/session memory, retry, yielded, testing
            #expect(Self.status("Load", code) == -25291)
            #expect(Self.status("Create", code) == -25291)
        }
        #expect(Self.status("Load", 0xA_000A) == -25291)  // TCTI I/O error
        #expect(Self.status("Sign", 0xA_0009) == -25291)  // TCTI: try again (a timeout)
        #expect(Self.status("CreatePrimary", 0x101) == -25291)  // TPM_RC_FAILURE
    }

    @Test func lockoutAndAWrongAuthValue() {
        #expect(Self.status("Load", 0x921) == -25308)  // TPM_RC_LOCKOUT: not now
        #expect(Self.status("Create", 0x921) == -25308)
        #expect(Self.status("Sign", 0x98E) == -25293)  // TPM_RC_AUTH_FAIL, session 1
        #expect(Self.status("Sign", 0x9A2) == -25293)  // TPM_RC_BAD_AUTH, session 1
    }

    @Test func noTPMAndOtherFailures() {
        #expect(TPMError.unavailable(tcti: "device:/dev/null").status == -4)
        #expect(TPMError.notBuiltIn.status == -4)
        #expect(TPMError.invalidKeyBlob.status == -50)
        #expect(Self.status("Sign", 0x7_0018) == -2070)  // ESAPI: a malformed response
    }

    @Test func aTPMThatDoesNotAnswerInTimeIsNotAvailableAndSaysWhichAndHowLong() {
        let error = TPMError.timedOut(tcti: "device:/dev/tpmrm0", seconds: 10)
        #expect(error.status == -25291)
        #expect(error.description == "the TPM at device:/dev/tpmrm0 did not answer within 10 s")
        #expect(TPMError.timedOut(tcti: "t", seconds: 1.5).description == "the TPM at t did not answer within 1.5 s")
    }

    @Test func aBrokenTransportOrALostObjectEndsTheConnectionAndAnAnswerOfTheTPMDoesNot() {
        // The transport, and ESAPI's context after a failure below the TPM (it answers BAD_SEQUENCE from then on).
        for code: UInt32 in [0xA_000A, 0xA_0008, 0xA_0001, 0x7_0007, 0x7_0011, 0x7_001B, 0x8_0013] {
            #expect(TPMError.endsConnection(code) && TPMError.isTransportFailure(code), "\(code)")
        }
        // ESAPI's own failures end its context too, but are no transport's: they keep their status (-2070).
        #expect(TPMError.endsConnection(0x7_0018) && !TPMError.isTransportFailure(0x7_0018))
        // TPM_RC_REFERENCE_H0…H6, S0…S6: the TPM no longer has the connection's objects or sessions.
        for code: UInt32 in [0x910, 0x916, 0x918, 0x91E] { #expect(TPMError.isTransportFailure(code)) }
        // Answers of the TPM (lockout, wrong auth value, memory, retry, a policy, the blob) and of the resource
        // manager keep the connection.
        for code: UInt32 in [0x921, 0x98E, 0x9A2, 0x902, 0x922, 0x917, 0x99D, 0x1DF, 0x1CB, 0xB_0001, 0xC_0902] {
            #expect(!TPMError.endsConnection(code), "\(code)")
        }
        #expect(TPMError.tpm(operation: "Load", code: 0xA_000A).endsConnection)
        #expect(!TPMError.tpm(operation: "Load", code: 0x921).endsConnection)
        #expect(!TPMError.timedOut(tcti: "t", seconds: 1).endsConnection)  // its own way: the caller gives it up
        #expect(
            TPMError.tpm(operation: "Sign", code: 0x7_0018).lostConnection(tcti: "t")
                == .connectionLost(tcti: "t", operation: "Sign", code: 0x7_0018))
        #expect(TPMError.foreignStorageKey.lostConnection(tcti: "t") == nil)
    }

    @Test func aLostConnectionATPMGoneAndAnotherStorageKeyAreNotAvailable() {
        let lost = TPMError.connectionLost(tcti: "device:/dev/tpmrm0", operation: "Sign", code: 0xA_000A)
        #expect(lost.status == -25291)
        #expect(
            lost.description
                == "the connection to the TPM at device:/dev/tpmrm0 broke (Sign failed: 0xa000a); the next use "
                + "connects anew")
        #expect(TPMError.wentAway(tcti: "t").status == -25291)
        #expect(TPMError.wentAway(tcti: "t").description == "the TPM at t went away: nothing answers there any more")
        let unanswered = TPMError.stillUnanswered(tcti: "t", secondsAgo: 12)
        #expect(unanswered.status == -25291)
        #expect(
            unanswered.description
                == "the TPM at t has not answered a call given up 12 s ago; a new connection is tried only once it "
                + "does, or now and then while few calls wait")
        #expect(TPMError.foreignStorageKey.status == -26275)
        #expect(
            TPMError.foreignStorageKey.description == "the TPM's storage key is not the one this key was made under")
    }

    @Test func theTimeoutsComeFromTheVariable() {
        #expect(TPMTimeouts.standard == TPMTimeouts(creation: 30, use: 10))
        #expect(TPMTimeouts.parsed("2") == TPMTimeouts(creation: 2, use: 2))
        #expect(TPMTimeouts.parsed("0.5") == TPMTimeouts(creation: 0.5, use: 0.5))
        for refused in ["0", "-1", "nan", "inf", "ten", ""] { #expect(TPMTimeouts.parsed(refused) == nil) }
        TPMTimeouts.$override.withValue(TPMTimeouts(creation: 2, use: 1)) {
            #expect(TPMTimeouts.configured() == TPMTimeouts(creation: 2, use: 1))
        }
    }

    @Test func anEnclaveErrorCarriesTheStatusAndTheCode() {
        let error = EnclaveError.status(
            Self.status("Load", 0x902), reason: TPMError.tpm(operation: "Load", code: 0x902).description)
        #expect(error.status == -25291)
        #expect(error.description.contains("0x902"))
    }
}
