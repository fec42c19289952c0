import Foundation
import KeychainCore
import KeychainTestSupport
import Testing

@testable import KeychainRequests

/// The typed encoding of every request and response: what goes in comes out, and hostile bytes are errSecDecode
/// (-26275), never a trap.
@Suite struct WireCodecTests {
    static let context = AuthenticationContextID(bytes: Array(1...16))

    static var fullQuery: ItemQuery {
        var query = ItemQuery(
            itemClass: .internetPassword,
            attributes: [
                .server: .string("example.com"), .port: .number(-443), .isInvisible: .bool(true),
                .generic: .data([0, 1, 255]), .creationDate: .date(Date(timeIntervalSinceReferenceDate: 12.5)),
            ],
            accessGroup: "TEAM1.shared", synchronizable: .any, accessibility: .afterFirstUnlockThisDeviceOnly,
            limit: .count(7), caseInsensitive: true, returns: [.data, .attributes, .persistentReference],
            persistentReference: PersistentReference(itemClass: .genericPassword, uuid: Array(repeating: 9, count: 16)))
        query.authentication = ReadAuthentication(ui: .skip, operationPrompt: "Sign in")
        return query
    }

    static var fullItem: NewItem {
        var item = NewItem(
            itemClass: .genericPassword, attributes: [.service: .string("svc"), .account: .string("ann")],
            accessGroup: "TEAM1.app", synchronizable: true, accessibility: .whenUnlocked,
            accessControl: AccessControlPolicy(
                accessibility: .whenPasscodeSetThisDeviceOnly, flags: [.or, .userPresence]),
            data: Array("hunter2".utf8), returns: [.attributes])
        item.returns = [.attributes, .data]
        return item
    }

    static var fullChanges: ItemChanges {
        ItemChanges(
            attributes: [.label: .string("new")], accessGroup: "TEAM1.other", synchronizable: false,
            accessibility: .always,
            accessControl: AccessControlPolicy(accessibility: .whenUnlocked, flags: [.biometryAny]),
            data: [1, 2, 3])
    }

    static var fullResult: ItemResult {
        ItemResult(
            itemClass: .genericPassword, value: .secret(Secret([7, 7])), attributes: [.account: .string("a")],
            persistentReference: PersistentReference(itemClass: .genericPassword, uuid: Array(repeating: 1, count: 16)),
            accessControl: AccessControlPolicy(accessibility: .whenUnlocked, flags: [.devicePasscode]))
    }

    static var allRequests: [KeychainRequest] {
        [
            .add(fullItem), .add(NewItem(itemClass: .genericPassword)), .search(fullQuery), .search(ItemQuery()),
            .update(fullQuery, fullChanges), .delete(fullQuery), .previewAdd(fullItem), .previewSearch(fullQuery),
            .previewUpdate(fullQuery, ItemChanges()), .previewDelete(ItemQuery(limit: .all)),
            .createAuthenticationContext, .forgetAuthenticationContext,
            .configureAuthenticationContext(
                AuthenticationContextSettings(reuseDuration: 30, interactionNotAllowed: true)),
            .configureAuthenticationContext(AuthenticationContextSettings()),
            .setApplicationPassword(Secret([1, 2])), .setApplicationPassword(nil), .invalidateAuthenticationContext,
            .authenticationContextState, .canEvaluatePolicy(.biometricsOrCompanion),
            .evaluatePolicy(.deviceOwner, reason: "Unlock the vault"), .evaluatePolicy(.companion, reason: ""),
            .evaluateAccessControl(
                AccessControlPolicy(accessibility: .whenUnlocked, flags: [.biometryAny, .or, .devicePasscode]),
                operation: .useKeySign, reason: "Sign in"),
            .keychainInfo, .lock, .unlock(passcode: Secret(Array("1234".utf8))),
            .setPasscode(new: Secret([5]), current: Secret([6])), .setPasscode(new: Secret([5]), current: nil),
            .removePasscode(current: Secret([6])), .setGracePeriod(seconds: -3), .simulateRestart,
            .backup(path: "/tmp/b.kcb", password: Secret([8])), .restore(path: "/tmp/é.kcb", password: Secret([])),
            .backupArchive(password: Secret([7])), .restoreArchive([1, 2, 3], password: Secret([9])),
            .restoreArchive([], password: Secret([])),
            .biometryStatus, .simulatedBiometry(.enroll), .simulatedBiometry(.unenroll),
            .simulatedBiometry(.changeEnrollment), .simulatedBiometry(.script(.fallback)), .simulatedCompanion(.pair),
            .simulatedCompanion(.unpair), .simulatedCompanion(.script(.deny)), .simulatedCompanion(.status),
            .describeService,
            .enclaveKey(.backing),
            .enclaveKey(
                .create(
                    use: 3,
                    policy: AccessControlPolicy(
                        accessibility: .whenPasscodeSetThisDeviceOnly, flags: [.privateKeyUsage, .biometryCurrentSet]),
                    compactRepresentable: false)),
            .enclaveKey(.restore(storedForm: Array("KSWE".utf8) + [1, 1], use: 1)),
            .enclaveKey(.sign(storedForm: [9], use: 1, digest: Array(repeating: 2, count: 32), reason: "Sign")),
            .enclaveKey(.sign(storedForm: [], use: 3, digest: [], reason: nil)),
            .enclaveKey(.agree(storedForm: [8], use: 2, peerPoint: [4, 5], reason: "Agree")),
        ]
    }

    static var allResponses: [KeychainResponse] {
        [
            .done, .added(nil), .added(fullResult),
            .found(
                SearchReport(results: [fullResult, fullResult], leftOut: 2, damaged: 1, explanation: "two left out")),
            .found(SearchReport(results: [], leftOut: 0, damaged: 0, explanation: nil)), .deleted(count: 12),
            .preview(OperationPreview(items: [[.account: .string("x")], [:]], unavailable: 3)),
            .authenticationContext(AuthenticationContextID(bytes: Array(repeating: 4, count: 16))!),
            .authenticationContextState(
                AuthenticationContextState(
                    reuseDuration: 10, interactionNotAllowed: true, isInvalidated: false, hasApplicationPassword: true,
                    evaluatedDomainState: [1, 2])),
            .evaluated(.devicePasscode),
            .info(
                KeychainInfo(
                    lockState: .locked, hasPasscode: true, gracePeriod: 10, kdfIterations: 100_000,
                    kdfMilliseconds: 80.5, failedAttempts: 2, retryAfterSeconds: 1.5, classKeyStore: "kernel keyring")),
            .info(
                KeychainInfo(
                    lockState: .noPasscode, hasPasscode: false, gracePeriod: 0, kdfIterations: nil,
                    kdfMilliseconds: nil, failedAttempts: 0, retryAfterSeconds: 0, classKeyStore: "process")),
            .backup(BackupSummary(itemCount: 5, excludedCount: 1, damagedCount: 2)),
            .backupArchive([0xB1, 0, 0xFF], BackupSummary(itemCount: 3, excludedCount: 0, damagedCount: 1)),
            .biometryStatus(
                BiometryStatus(
                    isAvailable: true, isEnrolled: true, isLockedOut: false, failures: 1, script: [.match, .noMatch],
                    answersPrompts: true, domainState: [9])),
            .companionStatus(CompanionStatus(isPaired: true, script: [.approve, .cancel])),
            .service(ServiceDescription(databasePath: "/var/lib/x.db", usesFingerprintReader: false, backEnds: ["a"])),
            .enclaveBacking(.none), .enclaveBacking(.software), .enclaveBacking(.tpm(tcti: "swtpm:port=2321")),
            .enclaveKey(
                EnclaveKeyDescription(storedForm: [0xE1, 0, 2], publicPoint: [4, 1], isHardwareBacked: false)),
            .enclaveSignature([1, 2]), .enclaveSecret(Secret(Array(repeating: 3, count: 32))),
        ]
    }

    @Test func everyRequestRoundTripsToTheSameBytes() throws {
        for request in Self.allRequests {
            for context in [nil, Self.context] {
                let bytes = try RequestCodec.encode(request, context: context)
                let decoded = try RequestCodec.decode(bytes)
                #expect(decoded.context == context)
                #expect(try RequestCodec.encode(decoded.request, context: decoded.context) == bytes, "\(request)")
            }
        }
    }

    @Test func everyResponseRoundTripsToTheSameBytes() throws {
        for response in Self.allResponses {
            let bytes = try ResponseCodec.encode(.success(response))
            let decoded = try ResponseCodec.decode(bytes)
            #expect(try ResponseCodec.encode(.success(decoded)) == bytes, "\(response)")
        }
    }

    @Test func decodedValuesAreTheOnesSent() throws {
        let envelope = try RequestCodec.decode(
            try RequestCodec.encode(.update(Self.fullQuery, Self.fullChanges), context: nil))
        guard case .update(let query, let changes) = envelope.request else {
            Issue.record("not an update")
            return
        }
        #expect(query.itemClass == .internetPassword)
        #expect(query.attributes == Self.fullQuery.attributes)
        #expect(query.limit == .count(7))
        #expect(query.synchronizable == .any)
        #expect(query.returns == [.data, .attributes, .persistentReference])
        #expect(query.persistentReference == Self.fullQuery.persistentReference)
        #expect(query.authentication.ui == .skip)
        #expect(query.authentication.operationPrompt == "Sign in")
        #expect(changes.data == [1, 2, 3])
        #expect(changes.synchronizable == false)
        #expect(changes.accessControl == AccessControlPolicy(accessibility: .whenUnlocked, flags: [.biometryAny]))

        let unlock = try RequestCodec.decode(
            try RequestCodec.encode(.unlock(passcode: Secret([1, 2, 3, 4])), context: nil))
        guard case .unlock(let passcode) = unlock.request else {
            Issue.record("not an unlock")
            return
        }
        #expect(passcode.bytes == [1, 2, 3, 4])
    }

    @Test func errorsCrossWithStatusAndReason() throws {
        let failed = try ResponseCodec.encode(.failure(KeychainError.duplicateItem.because("the item exists")))
        #expect {
            try ResponseCodec.decode(failed)
        } throws: { error in
            (error as? KeychainError)?.status == -25299 && (error as? KeychainError)?.reason == "the item exists"
        }
        let canceled = try ResponseCodec.encode(.failure(AuthenticationFailure.userCancel))
        #expect(throws: AuthenticationFailure.userCancel) { try ResponseCodec.decode(canceled) }
        struct Other: Error {}
        let other = try ResponseCodec.encode(.failure(Other()))
        #expect(status { _ = try ResponseCodec.decode(other) } == SecurityStatus.internalComponent)
    }

    /// A date the engine would refuse (outside the years 0 to 9999, or not a number at all) is refused by the
    /// decoder with the engine's status, errSecParam, before anything can format it (Foundation traps on
    /// `Date.description` of NaN).
    @Test func aDateTheEngineWouldRefuseIsErrSecParamWhenDecoded() throws {
        for seconds in [Double.nan, .infinity, -.infinity, 1e300] {
            var query = Self.fullQuery
            query.attributes[.creationDate] = .date(Date(timeIntervalSinceReferenceDate: seconds))
            let bytes = try RequestCodec.encode(.search(query), context: nil)
            #expect(status { _ = try RequestCodec.decode(bytes) } == -50)
        }
        var query = Self.fullQuery
        query.attributes[.creationDate] = .date(Date(timeIntervalSinceReferenceDate: 1e10))
        let decoded = try RequestCodec.decode(try RequestCodec.encode(.search(query), context: nil))
        #expect("\(decoded.request)".contains("search"))
    }

    @Test func everyTruncationIsADecodeError() throws {
        for request in Self.allRequests {
            let bytes = try RequestCodec.encode(request, context: Self.context)
            for end in 0..<bytes.count {
                #expect(status { _ = try RequestCodec.decode(Array(bytes[..<end])) } == -26275)
            }
            #expect(status { _ = try RequestCodec.decode(bytes + [0]) } == -26275)
        }
        for response in Self.allResponses {
            let bytes = try ResponseCodec.encode(.success(response))
            for end in 0..<bytes.count {
                #expect(status { _ = try ResponseCodec.decode(Array(bytes[..<end])) } == -26275)
            }
        }
    }

    @Test func hostileCountsAndTagsAreDecodeErrors() {
        // No context, a search, no class, then an attribute count of 2^32 - 1.
        let hugeCount: [UInt8] = [0, 2, 0, 0xFF, 0xFF, 0xFF, 0xFF]
        #expect(status { _ = try RequestCodec.decode(hugeCount) } == -26275)
        // A request kind this daemon does not know is a newer client's: unimplemented, not a damaged message.
        #expect(status { _ = try RequestCodec.decode([0, 200]) } == -4)
        #expect(status { _ = try RequestCodec.decode([2]) } == -26275)
        #expect(status { _ = try ResponseCodec.decode([1, 99]) } == -26275)
        // An add whose class is not UTF-8.
        #expect(status { _ = try RequestCodec.decode([0, 1, 0, 0, 0, 2, 0xC3, 0x28]) } == -26275)
        // A flag byte other than 0 or 1.
        #expect(status { _ = try RequestCodec.decode([0, 22, 7]) } == -26275)
    }

    @Test func textIsCheckedWhetherASCIIOrNotAndNamesMustBeKnown() throws {
        let query = ItemQuery(
            itemClass: .genericPassword, attributes: [.account: .string("Zürich 鍵")], accessibility: .afterFirstUnlock)
        let bytes = try RequestCodec.encode(.search(query), context: nil)
        guard case .search(let decoded) = try RequestCodec.decode(bytes).request else {
            Issue.record("not a search")
            return
        }
        #expect(decoded.attributes[.account] == .string("Zürich 鍵"))
        #expect(decoded.itemClass == .genericPassword)
        #expect(decoded.accessibility == .afterFirstUnlock)
        func patched(_ from: [UInt8], _ to: [UInt8]) -> [UInt8] {
            var copy = bytes
            let starts = 0...(copy.count - from.count)
            guard let start = starts.first(where: { Array(copy[$0..<($0 + from.count)]) == from }) else { return copy }
            copy.replaceSubrange(start..<(start + from.count), with: to)
            return copy
        }
        // "ü" (C3 BC) made an invalid sequence (C3 28); an unknown class; an unknown protection class.
        #expect(status { _ = try RequestCodec.decode(patched([0xC3, 0xBC], [0xC3, 0x28])) } == -26275)
        #expect(status { _ = try RequestCodec.decode(patched(Array("genp".utf8), Array("genq".utf8))) } == -26275)
        #expect(status { _ = try RequestCodec.decode(patched(Array("ck".utf8), Array("zk".utf8))) } == -26275)
    }

    @Test func randomBytesNeverTrap() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let count = Int.random(in: 0..<64, using: &generator)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = try? RequestCodec.decode(bytes)
            _ = try? ResponseCodec.decode(bytes)
        }
    }

    @Test func aSecretIsNeverInTheDescriptionOfADecodedRequest() throws {
        let envelope = try RequestCodec.decode(
            try RequestCodec.encode(.unlock(passcode: Secret(Array("s3cr3t".utf8))), context: nil))
        #expect(!String(describing: envelope.request).contains("s3cr3t"))
    }

    @Test func promptsAndRepliesRoundTrip() throws {
        for prompt in [UserPrompt.biometry(reason: "r"), .companion, .devicePasscode(reason: "Unlock")] {
            #expect(try PromptCodec.decodePrompt(PromptCodec.encode(prompt)) == prompt)
        }
        guard
            case .passcode(let box) = try PromptCodec.decodeAnswer(
                try PromptCodec.encode(.passcode(SecureBytesBox([4, 2]))))
        else {
            Issue.record("not a passcode")
            return
        }
        #expect(box.secure.bytes == [4, 2])
        guard case .failed(let failure) = try PromptCodec.decodeAnswer(try PromptCodec.encode(.canceled)) else {
            Issue.record("not a failure")
            return
        }
        #expect(failure == .userCancel)
        #expect(status { _ = try PromptCodec.decodeAnswer([1, 0, 0, 0, 99]) } == -26275)
        #expect(status { _ = try PromptCodec.decodePrompt([3]) } == -26275)
    }
}
