import KeychainCore

/// The typed encoding of a ``KeychainResponse``, or of the error a request failed with: the payload of a
/// `response` frame from keychaind.
///
///     0 | error kind (1) | its fields          a failure: 1 = KeychainError (status, reason), 2 = LAError code
///     1 | response tag (1) | the case's values  a success
package enum ResponseCodec {
    /// - Throws: errSecParam when a value is too large for the encoding.
    package static func encode(_ outcome: Result<KeychainResponse, any Error>) throws -> [UInt8] {
        var encoder = WireEncoder()
        switch outcome {
        case .success(let response):
            encoder.byte(1)
            encoder.response(response)
        case .failure(let error):
            encoder.byte(0)
            encoder.failure(error)
        }
        return try encoder.finished()
    }

    /// The response, or the error it carries thrown.
    /// - Throws: the request's error; errSecDecode for a malformed message.
    package static func decode(_ bytes: [UInt8]) throws -> KeychainResponse {
        let outcome: Result<KeychainResponse, any Error> = try WireDecoder.decode(bytes) { decoder in
            switch try decoder.byte() {
            case 0: return .failure(try decoder.failure())
            case 1: return .success(try decoder.response())
            case let tag: throw WireDecoder.invalid("an outcome", tag)
            }
        }
        return try outcome.get()
    }
}

extension WireEncoder {
    /// Only a status, a reason and an LAError code cross: the reasons are the engine's, written never to hold a
    /// secret; any other error becomes errSecInternalComponent naming its type only.
    fileprivate mutating func failure(_ error: any Error) {
        if let failure = error as? AuthenticationFailure {
            byte(2)
            int32(Int32(truncatingIfNeeded: failure.rawValue))
            return
        }
        let keychainError =
            error as? KeychainError
            ?? KeychainError(
                SecurityStatus.internalComponent, reason: "the keychain service failed (\(type(of: error)))")
        byte(1)
        int32(keychainError.status)
        optional(keychainError.explanation) { $0.reason($1) }
    }

    fileprivate mutating func response(_ response: KeychainResponse) {
        switch response {
        case .done: byte(0)
        case .added(let result):
            byte(1)
            optional(result) { $0.itemResult($1) }
        case .found(let report):
            byte(2)
            array(report.results) { $0.itemResult($1) }
            int(report.leftOut)
            int(report.damaged)
            optional(report.explanation) { $0.reason($1) }
        case .deleted(let count):
            byte(3)
            int(count)
        case .preview(let preview):
            byte(4)
            array(preview.items) { $0.attributes($1) }
            int(preview.unavailable)
        case .authenticationContext(let id):
            byte(5)
            bytes(id.bytes)
        case .authenticationContextState(let state):
            byte(6)
            double(state.reuseDuration)
            bool(state.interactionNotAllowed)
            bool(state.isInvalidated)
            bool(state.hasApplicationPassword)
            optional(state.evaluatedDomainState) { $0.bytes($1) }
        case .evaluated(let method):
            byte(7)
            string(method.rawValue)
        case .info(let info):
            byte(8)
            string(info.lockState.rawValue)
            bool(info.hasPasscode)
            int(info.gracePeriod)
            optional(info.kdfIterations) { $0.int($1) }
            optional(info.kdfMilliseconds) { $0.double($1) }
            int(info.failedAttempts)
            double(info.retryAfterSeconds)
            string(info.classKeyStore)
        case .backup(let summary):
            byte(9)
            summaryValues(summary)
        case .backupArchive(let archive, let summary):
            byte(13)
            bytes(archive)
            summaryValues(summary)
        case .biometryStatus(let status):
            byte(10)
            bool(status.isAvailable)
            bool(status.isEnrolled)
            bool(status.isLockedOut)
            int(status.failures)
            array(status.script) { $0.string($1.rawValue) }
            bool(status.answersPrompts)
            optional(status.domainState) { $0.bytes($1) }
        case .companionStatus(let status):
            byte(11)
            bool(status.isPaired)
            array(status.script) { $0.string($1.rawValue) }
        case .service(let description):
            byte(12)
            string(description.databasePath)
            bool(description.usesFingerprintReader)
            array(description.backEnds) { $0.string($1) }
        case .enclaveBacking(let backing):
            byte(14)
            switch backing {
            case .none: byte(0)
            case .software: byte(1)
            case .tpm(let tcti):
                byte(2)
                string(tcti)
            }
        case .enclaveKey(let key):
            byte(15)
            bytes(key.storedForm)
            bytes(key.publicPoint)
            bool(key.isHardwareBacked)
        case .enclaveSignature(let signature):
            byte(16)
            bytes(signature)
        case .enclaveSecret(let secret):
            byte(17)
            self.secret(secret)
        }
    }

    private mutating func summaryValues(_ summary: BackupSummary) {
        int(summary.itemCount)
        int(summary.excludedCount)
        int(summary.damagedCount)
    }
}

extension WireDecoder {
    fileprivate mutating func failure() throws -> any Error {
        switch try byte() {
        case 1:
            let status = try int32()
            return KeychainError(status, reason: try optional { try $0.reason() })
        case 2:
            let code = try int32()
            guard let failure = AuthenticationFailure(rawValue: Int(code)) else {
                throw KeychainError.decode.because("the message carries an unknown LAError code \(code)")
            }
            return failure
        case let tag: throw Self.invalid("an error kind", tag)
        }
    }

    fileprivate mutating func response() throws -> KeychainResponse {
        switch try byte() {
        case 0: return .done
        case 1: return .added(try optional { try $0.itemResult() })
        case 2:
            let results = try array { try $0.itemResult() }
            let leftOut = try int()
            let damaged = try int()
            return .found(
                SearchReport(
                    results: results, leftOut: leftOut, damaged: damaged,
                    explanation: try optional { try $0.reason() }))
        case 3: return .deleted(count: try int())
        case 4:
            let items = try array(minimumSize: 4) { try $0.attributes() }
            return .preview(OperationPreview(items: items, unavailable: try int()))
        case 5:
            guard let id = AuthenticationContextID(bytes: try bytes()) else {
                throw KeychainError.decode.because("the message names an authentication context of the wrong size")
            }
            return .authenticationContext(id)
        case 6:
            return .authenticationContextState(
                AuthenticationContextState(
                    reuseDuration: try double(), interactionNotAllowed: try bool(), isInvalidated: try bool(),
                    hasApplicationPassword: try bool(), evaluatedDomainState: try optional { try $0.bytes() }))
        case 7: return .evaluated(try raw(AuthenticationMethod.self, "authentication method"))
        case 8:
            return .info(
                KeychainInfo(
                    lockState: try raw(LockState.self, "lock state"), hasPasscode: try bool(), gracePeriod: try int(),
                    kdfIterations: try optional { try $0.int() }, kdfMilliseconds: try optional { try $0.double() },
                    failedAttempts: try int(), retryAfterSeconds: try double(), classKeyStore: try string()))
        case 9: return .backup(try summary())
        case 13: return .backupArchive(try bytes(), try summary())
        case 10:
            return .biometryStatus(
                BiometryStatus(
                    isAvailable: try bool(), isEnrolled: try bool(), isLockedOut: try bool(), failures: try int(),
                    script: try array(minimumSize: 4) { try $0.raw(BiometricOutcome.self, "biometric outcome") },
                    answersPrompts: try bool(), domainState: try optional { try $0.bytes() }))
        case 11:
            return .companionStatus(
                CompanionStatus(
                    isPaired: try bool(),
                    script: try array(minimumSize: 4) { try $0.raw(CompanionOutcome.self, "companion outcome") }))
        case 12:
            return .service(
                ServiceDescription(
                    databasePath: try string(), usesFingerprintReader: try bool(),
                    backEnds: try array(minimumSize: 4) { try $0.string() }))
        case 14:
            switch try byte() {
            case 0: return .enclaveBacking(.none)
            case 1: return .enclaveBacking(.software)
            case 2: return .enclaveBacking(.tpm(tcti: try string()))
            case let tag: throw Self.invalid("an enclave backing", tag)
            }
        case 15:
            return .enclaveKey(
                EnclaveKeyDescription(storedForm: try bytes(), publicPoint: try bytes(), isHardwareBacked: try bool()))
        case 16: return .enclaveSignature(try bytes())
        case 17: return .enclaveSecret(try secret())
        case let tag: throw Self.invalid("a response kind", tag)
        }
    }
    private mutating func summary() throws -> BackupSummary {
        BackupSummary(itemCount: try int(), excludedCount: try int(), damagedCount: try int())
    }
}
