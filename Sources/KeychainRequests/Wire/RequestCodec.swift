import KeychainCore

/// The typed encoding of a ``KeychainRequest`` and the authentication context its caller names: the payload of
/// a `request` frame to keychaind. The caller's identity is not sent: the daemon takes it from the kernel.
///
///     context (presence byte, 16 bytes) | request tag (1) | the case's values
package enum RequestCodec {
    /// A request as it travels: what is asked, and the context id of the caller, if any.
    package struct Envelope: Sendable {
        package var request: KeychainRequest
        package var context: AuthenticationContextID?

        package init(request: KeychainRequest, context: AuthenticationContextID?) {
            self.request = request
            self.context = context
        }
    }

    /// - Throws: errSecParam when a value is too large for the encoding.
    package static func encode(_ request: KeychainRequest, context: AuthenticationContextID?) throws -> [UInt8] {
        var encoder = WireEncoder()
        encoder.optional(context) { $0.bytes($1.bytes) }
        encoder.request(request)
        return try encoder.finished()
    }

    /// - Throws: errSecDecode with a reason for anything that is not a whole, well-formed request.
    package static func decode(_ bytes: [UInt8]) throws -> Envelope {
        try WireDecoder.decode(bytes) { decoder in
            let context = try decoder.optional { decoder -> AuthenticationContextID in
                guard let id = AuthenticationContextID(bytes: try decoder.bytes()) else {
                    throw KeychainError.decode.because("the message names an authentication context of the wrong size")
                }
                return id
            }
            return Envelope(request: try decoder.request(), context: context)
        }
    }
}

extension WireEncoder {
    fileprivate mutating func request(_ request: KeychainRequest) {
        switch request {
        case .add(let item): tagged(1) { $0.newItem(item) }
        case .search(let query): tagged(2) { $0.query(query) }
        case .update(let query, let changes):
            tagged(3) {
                $0.query(query)
                $0.changes(changes)
            }
        case .delete(let query): tagged(4) { $0.query(query) }
        case .previewAdd(let item): tagged(5) { $0.newItem(item) }
        case .previewSearch(let query): tagged(6) { $0.query(query) }
        case .previewUpdate(let query, let changes):
            tagged(7) {
                $0.query(query)
                $0.changes(changes)
            }
        case .previewDelete(let query): tagged(8) { $0.query(query) }
        case .createAuthenticationContext: byte(20)
        case .forgetAuthenticationContext: byte(21)
        case .configureAuthenticationContext(let settings):
            tagged(22) {
                $0.optional(settings.reuseDuration) { $0.double($1) }
                $0.optional(settings.interactionNotAllowed) { $0.bool($1) }
            }
        case .setApplicationPassword(let password): tagged(23) { $0.optional(password) { $0.secret($1) } }
        // Protocol 5 (KeychainRequest.minimumProtocol): an older daemon is never sent this tag.
        case .setLocalizedReason(let reason): tagged(29) { $0.string(reason) }
        case .invalidateAuthenticationContext: byte(24)
        case .authenticationContextState: byte(25)
        case .canEvaluatePolicy(let policy): tagged(26) { $0.policy(policy) }
        case .evaluatePolicy(let policy, let reason):
            tagged(27) {
                $0.policy(policy)
                $0.string(reason)
            }
        case .evaluateAccessControl(let policy, let operation, let reason):
            tagged(28) {
                $0.accessControl(policy)
                $0.byte(operation.rawValue)
                $0.string(reason)
            }
        case .keychainInfo: byte(40)
        case .lock: byte(41)
        case .unlock(let passcode): tagged(42) { $0.secret(passcode) }
        case .setPasscode(let new, let current):
            tagged(43) {
                $0.secret(new)
                $0.optional(current) { $0.secret($1) }
            }
        case .removePasscode(let current): tagged(44) { $0.secret(current) }
        case .setGracePeriod(let seconds): tagged(45) { $0.int(seconds) }
        case .simulateRestart: byte(46)
        case .backup(let path, let password):
            tagged(47) {
                $0.string(path)
                $0.secret(password)
            }
        case .restore(let path, let password):
            tagged(48) {
                $0.string(path)
                $0.secret(password)
            }
        case .backupArchive(let password): tagged(49) { $0.secret(password) }
        case .restoreArchive(let archive, let password):
            tagged(50) {
                $0.bytes(archive)
                $0.secret(password)
            }
        case .biometryStatus: byte(60)
        case .simulatedBiometry(let action):
            tagged(61) {
                switch action {
                case .enroll: $0.byte(0)
                case .unenroll: $0.byte(1)
                case .changeEnrollment: $0.byte(2)
                case .script(let outcome):
                    $0.byte(3)
                    $0.string(outcome.rawValue)
                }
            }
        case .simulatedCompanion(let action):
            tagged(62) {
                switch action {
                case .pair: $0.byte(0)
                case .unpair: $0.byte(1)
                case .script(let outcome):
                    $0.byte(2)
                    $0.string(outcome.rawValue)
                case .status: $0.byte(3)
                }
            }
        case .describeService: byte(63)
        case .enclaveKey(let enclaveRequest): tagged(70) { $0.enclaveKey(enclaveRequest) }
        }
    }

    private mutating func enclaveKey(_ request: EnclaveKeyRequest) {
        switch request {
        case .backing: byte(0)
        case .create(let use, let policy, let compactRepresentable):
            tagged(1) {
                $0.byte(use)
                $0.accessControl(policy)
                $0.bool(compactRepresentable)
            }
        case .restore(let storedForm, let use):
            tagged(2) {
                $0.bytes(storedForm)
                $0.byte(use)
            }
        case .sign(let storedForm, let use, let digest, let reason):
            tagged(3) {
                $0.bytes(storedForm)
                $0.byte(use)
                $0.bytes(digest)
                $0.optional(reason) { $0.string($1) }
            }
        case .agree(let storedForm, let use, let peerPoint, let reason):
            tagged(4) {
                $0.bytes(storedForm)
                $0.byte(use)
                $0.bytes(peerPoint)
                $0.optional(reason) { $0.string($1) }
            }
        }
    }

    private mutating func tagged(_ tag: UInt8, _ body: (inout WireEncoder) -> Void) {
        byte(tag)
        body(&self)
    }
}

extension WireDecoder {
    fileprivate mutating func request() throws -> KeychainRequest {
        switch try byte() {
        case 1: return .add(try newItem())
        case 2: return .search(try query())
        case 3: return .update(try query(), try changes())
        case 4: return .delete(try query())
        case 5: return .previewAdd(try newItem())
        case 6: return .previewSearch(try query())
        case 7: return .previewUpdate(try query(), try changes())
        case 8: return .previewDelete(try query())
        case 20: return .createAuthenticationContext
        case 21: return .forgetAuthenticationContext
        case 22:
            let reuse = try optional { try $0.double() }
            let refused = try optional { try $0.bool() }
            return .configureAuthenticationContext(
                AuthenticationContextSettings(reuseDuration: reuse, interactionNotAllowed: refused))
        case 23: return .setApplicationPassword(try optional { try $0.secret() })
        case 24: return .invalidateAuthenticationContext
        case 25: return .authenticationContextState
        case 26: return .canEvaluatePolicy(try policy())
        case 27: return .evaluatePolicy(try policy(), reason: try string())
        case 28:
            let policy = try accessControl()
            let tag = try byte()
            guard let operation = Keychain.AccessControlOperation(rawValue: tag) else {
                throw Self.invalid("an access control operation", tag)
            }
            return .evaluateAccessControl(policy, operation: operation, reason: try string())
        case 29: return .setLocalizedReason(try string())
        case 40: return .keychainInfo
        case 41: return .lock
        case 42: return .unlock(passcode: try secret())
        case 43: return .setPasscode(new: try secret(), current: try optional { try $0.secret() })
        case 44: return .removePasscode(current: try secret())
        case 45: return .setGracePeriod(seconds: try int())
        case 46: return .simulateRestart
        case 47: return .backup(path: try string(), password: try secret())
        case 48: return .restore(path: try string(), password: try secret())
        case 49: return .backupArchive(password: try secret())
        case 50: return .restoreArchive(try bytes(), password: try secret())
        case 60: return .biometryStatus
        case 61:
            switch try byte() {
            case 0: return .simulatedBiometry(.enroll)
            case 1: return .simulatedBiometry(.unenroll)
            case 2: return .simulatedBiometry(.changeEnrollment)
            case 3: return .simulatedBiometry(.script(try raw(BiometricOutcome.self, "biometric outcome")))
            case let tag: throw Self.invalid("a biometry action", tag)
            }
        case 62:
            switch try byte() {
            case 0: return .simulatedCompanion(.pair)
            case 1: return .simulatedCompanion(.unpair)
            case 2: return .simulatedCompanion(.script(try raw(CompanionOutcome.self, "companion outcome")))
            case 3: return .simulatedCompanion(.status)
            case let tag: throw Self.invalid("a companion action", tag)
            }
        case 63: return .describeService
        case 70: return .enclaveKey(try enclaveKey())
        case let tag:
            // A kind from a newer client: unimplemented here, not a damaged message.
            throw KeychainError.unimplemented.because(
                "this keychaind does not serve request kind \(Int(tag)): the client is newer; restart keychaind with "
                    + "its release")
        }
    }

    private mutating func enclaveKey() throws -> EnclaveKeyRequest {
        switch try byte() {
        case 0: return .backing
        case 1: return .create(use: try byte(), policy: try accessControl(), compactRepresentable: try bool())
        case 2: return .restore(storedForm: try bytes(), use: try byte())
        case 3:
            return .sign(
                storedForm: try bytes(), use: try byte(), digest: try bytes(), reason: try optional { try $0.string() })
        case 4:
            return .agree(
                storedForm: try bytes(), use: try byte(), peerPoint: try bytes(),
                reason: try optional { try $0.string() })
        case let tag: throw Self.invalid("an enclave key request", tag)
        }
    }
}
