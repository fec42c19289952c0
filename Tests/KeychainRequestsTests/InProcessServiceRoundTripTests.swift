import Foundation
import KeychainCore
import KeychainRequests
import KeychainTestSupport
import Synchronization
import Testing

/// Every request kind through the in-process service, with the response it answers.
@Suite struct InProcessServiceRoundTripTests {
    @Test func itemRequestsAndTheirDryRuns() throws {
        try withService { service in
            let me = service.caller()
            guard case .done = try service.perform(.previewAdd(password("a")), as: me) else {
                Issue.record("previewAdd")
                return
            }
            var add = password("a")
            add.returns = .persistentReference
            guard case .added(let added?) = try service.perform(.add(add), as: me) else {
                Issue.record("add")
                return
            }
            #expect(added.persistentReference != nil)
            #expect(
                status { _ = try service.perform(.previewAdd(password("a")), as: me) }
                    == SecurityStatus.duplicateItem)
            guard case .found(let report) = try service.perform(.search(query("a", returns: .data)), as: me),
                case .secret(let secret)? = report.results.first?.value
            else {
                Issue.record("search")
                return
            }
            #expect(secret.bytes == Array("s3cret".utf8))
            guard case .preview(let found) = try service.perform(.previewSearch(query("a")), as: me) else {
                Issue.record("previewSearch")
                return
            }
            #expect(found.items.count == 1)
            let changes = ItemChanges(data: Array("new".utf8))
            guard
                case .preview(let toChange) = try service.perform(
                    .previewUpdate(query("a", limit: .all), changes), as: me)
            else {
                Issue.record("previewUpdate")
                return
            }
            #expect(toChange.items.count == 1)
            guard case .done = try service.perform(.update(query("a", limit: .all), changes), as: me) else {
                Issue.record("update")
                return
            }
            let client = KeychainClient(service: service)
            #expect(try client.copyMatching(query("a", returns: .data)).first?.data?.bytes == Array("new".utf8))
            guard case .preview(let toDelete) = try service.perform(.previewDelete(query("a", limit: .all)), as: me)
            else {
                Issue.record("previewDelete")
                return
            }
            #expect(toDelete.items.count == 1)
            guard case .deleted(let count) = try service.perform(.delete(query("a", limit: .all)), as: me) else {
                Issue.record("delete")
                return
            }
            #expect(count == 1)
        }
    }

    @Test func keyValuesCrossTheBoundaryAndOtherKindsAreRefused() throws {
        try withService { service in
            let client = KeychainClient(service: service)
            let value = ItemValue.key(
                KeyValue(keyType: "73", keyClass: "1", sizeInBits: 256, externalRepresentation: Secret([4, 1, 2])))
            var misplaced = NewItem(itemClass: .genericPassword, attributes: [.account: .string("k")])
            misplaced.value = value
            #expect(status { try client.add(misplaced) } == SecurityStatus.param)
            #expect(status { try client.previewAdd(misplaced) } == SecurityStatus.param)
            var key = NewItem(itemClass: .key, attributes: [.applicationTag: .string("k")], returns: .reference)
            key.value = value
            let added = try client.add(key)
            guard case .key(let stored)? = added?.value else {
                Issue.record("no key value")
                return
            }
            #expect(stored.externalRepresentation.bytes == [4, 1, 2] && stored.keyType == "73")
            try client.add(password("p"))
            var changes = ItemChanges()
            changes.value = .certificate(CertificateValue(derBytes: [0x30, 0x00]))
            #expect(
                status { try client.update(query("p", limit: .all), with: changes) }
                    == SecurityStatus.param)
            #expect(try client.copyMatching(query("p", returns: .data)).first?.data?.bytes == Array("s3cret".utf8))
        }
    }

    @Test func lockStatePasscodeAndBackupRequests() throws {
        try withService { service in
            let client = KeychainClient(service: service)
            try client.add(password("b"))
            #expect(try client.info().hasPasscode == false)
            try client.setPasscode(Secret(Array("1234".utf8)))
            try client.setGracePeriod(0)
            #expect(try client.info().gracePeriod == 0)
            try client.lock()
            #expect(try client.info().lockState != .unlocked)
            #expect(status { try client.unlock(passcode: Secret(Array("0000".utf8))) } == SecurityStatus.authFailed)
            try client.unlock(passcode: Secret(Array("1234".utf8)))
            #expect(try client.info().lockState == .unlocked)
            try client.simulateRestart()
            try client.unlock(passcode: Secret(Array("1234".utf8)))
            try client.removePasscode(current: Secret(Array("1234".utf8)))
            #expect(try client.info().hasPasscode == false)

            let file = FileManager.default.temporaryDirectory.appendingPathComponent("rt-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: file) }
            let written = try client.backup(to: file, password: Secret(Array("backup-pw".utf8)))
            #expect(written.itemCount == 1)
            try client.delete(query("b", limit: .all))
            let restored = try client.restore(from: file, password: Secret(Array("backup-pw".utf8)))
            #expect(restored.itemCount == 1)
            #expect(try client.copyMatching(query("b", returns: .data)).first?.data?.bytes == Array("s3cret".utf8))
        }
    }

    @Test func authenticationContextRequests() throws {
        try withService { service in
            let client = KeychainClient(service: service)
            try client.setPasscode(Secret(Array("1234".utf8)))
            guard
                case .authenticationContext(let id) = try service.perform(
                    .createAuthenticationContext, as: service.caller())
            else {
                Issue.record("create")
                return
            }
            let mine = service.caller(context: id)
            _ = try service.perform(
                .configureAuthenticationContext(AuthenticationContextSettings(reuseDuration: 30)), as: mine)
            _ = try service.perform(.setApplicationPassword(Secret(Array("pw".utf8))), as: mine)
            guard
                case .authenticationContextState(let state) = try service.perform(
                    .authenticationContextState, as: mine)
            else {
                Issue.record("state")
                return
            }
            #expect(state.reuseDuration == 30)
            #expect(state.hasApplicationPassword)
            #expect(!state.isInvalidated)
            _ = try service.perform(.canEvaluatePolicy(.devicePasscode), as: mine)
            service.keychain.authenticators.passcodePrompt.enter("1234")
            guard
                case .evaluated(let method) = try service.perform(
                    .evaluatePolicy(.devicePasscode, reason: "test"), as: mine)
            else {
                Issue.record("evaluate")
                return
            }
            #expect(method == .devicePasscode)
            _ = try service.perform(.invalidateAuthenticationContext, as: mine)
            #expect(throws: AuthenticationFailure.invalidContext) {
                try service.perform(.canEvaluatePolicy(.devicePasscode), as: mine)
            }
            _ = try service.perform(.forgetAuthenticationContext, as: mine)
            #expect(service.keychain.authenticationContexts.count == 0)
        }
    }

    @Test func anApplicationPasswordReachesTheItemThroughTheCallersContextId() throws {
        try withService { service in
            guard
                case .authenticationContext(let id) = try service.perform(
                    .createAuthenticationContext, as: service.caller())
            else {
                Issue.record("create")
                return
            }
            let withContext = KeychainClient(service: service, caller: service.caller(context: id))
            _ = try service.perform(.setApplicationPassword(Secret(Array("pw".utf8))), as: withContext.caller)
            var item = password("ap")
            item.accessControl = AccessControlPolicy(accessibility: .whenUnlocked, flags: .applicationPassword)
            try withContext.add(item)
            let without = KeychainClient(service: service)
            #expect(status { _ = try without.copyMatching(query("ap", returns: .data)) } == SecurityStatus.authFailed)
            #expect(
                try withContext.copyMatching(query("ap", returns: .data)).first?.data?.bytes
                    == Array("s3cret".utf8))
        }
    }

    @Test func authenticatorRequests() throws {
        try withService { service in
            let client = KeychainClient(service: service)
            #expect(try client.biometryStatus().isEnrolled == false)
            try client.simulatedBiometry(.enroll)
            try client.simulatedBiometry(.script(.match))
            let sensor = try client.biometryStatus()
            #expect(sensor.isEnrolled)
            #expect(sensor.script == [.match])
            #expect(try client.simulatedCompanion(.pair).isPaired)
            #expect(try client.simulatedCompanion(.script(.approve)).script == [.approve])
            #expect(try client.simulatedCompanion(.unpair).isPaired == false)
            let description = try client.describeService()
            #expect(description.databasePath.hasSuffix("/" + Keychain.databaseFileName))
            #expect(!description.usesFingerprintReader)
            #expect(description.backEnds.count == 2)
        }
    }
}

/// A prompter that answers every passcode prompt with `passcode` and remembers what it was asked.
final class RecordingPrompter: UserPrompter {
    let passcode: String
    let asked = Mutex<[UserPrompt]>([])

    init(passcode: String) { self.passcode = passcode }

    func ask(_ prompt: UserPrompt) throws -> PromptAnswer {
        asked.withLock { $0.append(prompt) }
        guard case .devicePasscode = prompt else { throw AuthenticationFailure.userCancel }
        return .passcode(SecureBytesBox(Array(passcode.utf8)))
    }
}

@Suite struct UserPrompterTests {
    @Test func promptsGoThroughTheInjectedPrompterAndThePasscodeIsVerifiedByTheKeychain() throws {
        let prompter = RecordingPrompter(passcode: "1234")
        try withService(prompter: prompter) { service in
            try KeychainClient(service: service).setPasscode(Secret(Array("1234".utf8)))
            let context = AuthenticationContext()
            try service.keychain.authenticators.evaluate(.devicePasscode, context: context, reason: "why")
            #expect(prompter.asked.withLock { $0 } == [.devicePasscode(reason: "why")])
        }
        let wrong = RecordingPrompter(passcode: "9999")
        try withService(prompter: wrong) { service in
            try KeychainClient(service: service).setPasscode(Secret(Array("1234".utf8)))
            #expect(throws: AuthenticationFailure.authenticationFailed) {
                try service.keychain.authenticators.evaluate(.devicePasscode, context: AuthenticationContext())
            }
        }
    }
}
