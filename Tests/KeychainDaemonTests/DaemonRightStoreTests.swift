import Foundation
import KeychainCore
import KeychainRequests
import LocalAuthentication
import Security
import Testing

/// `LARightStore` and `LAContext` (rights, access-control evaluations) through keychaind: the right's items live in the daemon's keychain, and only
/// an authentication the daemon judged opens them.
@Suite(.serialized) struct DaemonRightStoreTests {
    /// Answers the daemon's passcode question with "1234".
    struct Passcode: UserPrompter {
        func ask(_ prompt: UserPrompt) throws -> PromptAnswer {
            guard case .devicePasscode = prompt else { throw AuthenticationFailure.notInteractive }
            return .passcode(SecureBytesBox(Array("1234".utf8)))
        }
    }

    @Test func aPersistedRightWorksThroughTheDaemon() async throws {
        let daemon = try DaemonProcess()
        let service = DaemonKeychainService(socketPath: daemon.socketPath, prompter: Passcode())
        let client = KeychainClient(service: service)
        try daemon.ownerClient().setPasscode(Secret(Array("1234".utf8)))
        try daemon.ownerClient().simulatedBiometry(.enroll)
        let secret = Data("token".utf8)
        try await ProcessKeychain.$taskKeychain.withValue(nil) {
            try await ProcessKeychainService.$taskService.withValue(service) {
                let context = LAContext()
                #expect(context.domainState.biometry.stateHash != nil)
                let store = LARightStore.shared
                _ = try await store.saveRight(
                    LARight(requirement: .biometryCurrentSet), identifier: "t", secret: secret)
                let right = try await store.right(forIdentifier: "t")
                #expect(await laCode { _ = try await right.secret.rawData } == .notInteractive)
                try daemon.ownerClient().simulatedBiometry(.script(.match))
                try await right.authorize(localizedReason: "test")
                #expect(try await right.secret.rawData == secret)
                let signature = try await right.key.sign(secret, algorithm: .ecdsaSignatureMessageX962SHA256)
                try await right.key.publicKey.verify(
                    secret, signature: signature, algorithm: .ecdsaSignatureMessageX962SHA256)

                // The passcode, judged by the daemon, grants a right of the default requirement.
                try daemon.ownerClient().simulatedBiometry(.script(.fallback))
                let owner = try await store.saveRight(LARight(), identifier: "o", secret: secret)
                try await owner.authorize(localizedReason: "test")
                #expect(try await owner.secret.rawData == secret)

                try daemon.ownerClient().simulatedBiometry(.changeEnrollment)
                try daemon.ownerClient().simulatedBiometry(.script(.match))
                let later = try await store.right(forIdentifier: "t")
                #expect(await laCode { try await later.authorize(localizedReason: "test") } == .authenticationFailed)
                try await store.removeAllRights()
                do {
                    _ = try await store.right(forIdentifier: "o")
                    Issue.record("a removed right was found")
                } catch let error as NSError {
                    #expect(error.code == Int(errSecItemNotFound))
                }
            }
        }
    }

    @Test func anAccessControlIsEvaluatedByTheDaemon() async throws {
        let daemon = try DaemonProcess()
        let service = DaemonKeychainService(socketPath: daemon.socketPath, prompter: Passcode())
        try daemon.ownerClient().setPasscode(Secret(Array("1234".utf8)))
        try await ProcessKeychain.$taskKeychain.withValue(nil) {
            try await ProcessKeychainService.$taskService.withValue(service) {
                let access = try #require(
                    SecAccessControlCreateWithFlags(
                        nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, .devicePasscode, nil))
                let context = LAContext()
                #expect(try await context.evaluateAccessControl(access, operation: .useItem, localizedReason: "t"))
                let refusing = LAContext()
                refusing.interactionNotAllowed = true
                #expect(
                    await laCode {
                        _ = try await refusing.evaluateAccessControl(access, operation: .useItem, localizedReason: "t")
                    } == .notInteractive)
            }
        }
    }

    /// The domain state and the environment read the daemon's authenticators, not a keychain of the client's.
    @Test func theDomainStateAndTheEnvironmentAreTheDaemons() async throws {
        let daemon = try DaemonProcess()
        let service = DaemonKeychainService(socketPath: daemon.socketPath, prompter: Passcode())
        let client = KeychainClient(service: service)
        try await ProcessKeychain.$taskKeychain.withValue(nil) {
            try await ProcessKeychainService.$taskService.withValue(service) {
                let environment = LAEnvironment.currentUser
                #expect(environment.state.userPassword?.isSet == false)
                #expect(environment.state.biometry?.isEnrolled == false)
                #expect(LAContext().domainState.biometry.stateHash == nil)

                try daemon.ownerClient().setPasscode(Secret(Array("1234".utf8)))
                try daemon.ownerClient().simulatedBiometry(.enroll)
                try daemon.ownerClient().simulatedCompanion(.pair)
                let state = environment.state
                #expect(state.userPassword?.isSet == true)
                #expect(state.biometry?.isUsable == true)
                #expect(state.companions.map(\.type) == [.watch])
                let hash = try #require(LAContext().domainState.biometry.stateHash)
                #expect(state.biometry?.stateHash == hash)
            }
        }
    }

    private func laCode(_ body: () async throws -> Void) async -> LAError.Code? {
        do {
            try await body()
            return nil
        } catch {
            return (error as? LAError)?.code
        }
    }
}
