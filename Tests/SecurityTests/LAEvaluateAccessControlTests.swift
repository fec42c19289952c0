import Foundation
import KeychainCore
import LocalAuthentication
import Security
import Testing

/// `LAContext.evaluateAccessControl`: authenticating for an access control ahead of the item, so that the item
/// then opens with the context and no prompt of its own.
@Suite struct LAEvaluateAccessControlTests {
    private func accessControl(_ flags: SecAccessControlCreateFlags) throws -> SecAccessControl {
        try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, flags, nil))
    }

    private func evaluate(_ context: LAContext, _ access: SecAccessControl, _ operation: LAAccessControlOperation)
        async -> LAError.Code?
    {
        await laErrorCode {
            let granted = try await context.evaluateAccessControl(access, operation: operation, localizedReason: "test")
            #expect(granted)
        }
    }

    @Test func anEvaluatedContextOpensTheItemWithoutAPrompt() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            #expect(addPassword("a", service: "s", secret: "gold", flags: .biometryAny) == errSecSuccess)
            let context = LAContext()
            let quiet: [String: Any] = [
                kSecUseAuthenticationContext as String: context,
                kSecUseAuthenticationUI as String: kSecUseAuthenticationUIFail,
            ]
            #expect(readPassword("a", service: "s", extra: quiet).0 == errSecInteractionNotAllowed)
            try keychain.authenticators.biometry.script(.noMatch, .match)
            // Creating needs no authentication: the queued no-match stays queued.
            #expect(await evaluate(context, try accessControl(.biometryAny), .createItem) == nil)
            #expect(await evaluate(context, try accessControl(.biometryAny), .useItem) == .authenticationFailed)
            #expect(await evaluate(context, try accessControl(.biometryAny), .useItem) == nil)
            #expect(readPassword("a", service: "s", extra: quiet) == (errSecSuccess, "gold"))
        }
    }

    @Test func eachConstraintAsksForItsOwnFactor() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            let prompts = keychain.authenticators
            // userPresence: biometry, falling back to the passcode.
            try prompts.biometry.script(.fallback)
            prompts.passcodePrompt.enter("1234")
            #expect(await evaluate(LAContext(), try accessControl(.userPresence), .useKeySign) == nil)
            // devicePasscode alone: the passcode prompt, judged against the keychain's passcode.
            prompts.passcodePrompt.enter("0000")
            #expect(await evaluate(LAContext(), try accessControl(.devicePasscode), .useItem) == .authenticationFailed)
            // No constraint: nothing to ask.
            #expect(await evaluate(LAContext(), try accessControl([]), .useItem) == nil)
            // An application password cannot be asked for: only setCredential provides it.
            let context = LAContext()
            #expect(await evaluate(context, try accessControl(.applicationPassword), .useItem) == .authenticationFailed)
            context.setCredential(Data("pw".utf8), type: .applicationPassword)
            #expect(await evaluate(context, try accessControl(.applicationPassword), .useItem) == nil)
            // A context that refuses interaction is not asked.
            let refusing = LAContext()
            refusing.interactionNotAllowed = true
            #expect(await evaluate(refusing, try accessControl(.biometryAny), .useItem) == .notInteractive)
            // An invalidated context evaluates nothing.
            let ended = LAContext()
            ended.invalidate()
            #expect(await evaluate(ended, try accessControl(.biometryAny), .useItem) == .invalidContext)
            #expect(await evaluate(ended, try accessControl(.biometryAny), .createItem) == .invalidContext)
        }
    }

    @Test func theCallbackFormReplies() async throws {
        try await withAuthenticatingKeychain { keychain, _ in
            try keychain.authenticators.biometry.script(.cancel)
            let access = try accessControl(.biometryCurrentSet)
            let context = LAContext()
            let outcome: (Bool, Int?) = await withCheckedContinuation { continuation in
                context.evaluateAccessControl(access, operation: .useKeyDecrypt, localizedReason: "test") {
                    continuation.resume(returning: ($0, ($1 as? LAError)?.code.rawValue))
                }
            }
            #expect(outcome == (false, LAError.userCancel.rawValue))
            #expect(LAAccessControlOperation.useKeyKeyExchange.rawValue == 5)
        }
    }
}

/// The C-level constants agree with the typed names.
@Suite struct LAPublicDefinesTests {
    @Test func theConstantsAreTheTypedValues() {
        let errors: [(Int32, LAError.Code)] = [
            (kLAErrorAuthenticationFailed, .authenticationFailed), (kLAErrorUserCancel, .userCancel),
            (kLAErrorUserFallback, .userFallback), (kLAErrorSystemCancel, .systemCancel),
            (kLAErrorPasscodeNotSet, .passcodeNotSet), (kLAErrorBiometryNotAvailable, .biometryNotAvailable),
            (kLAErrorBiometryNotEnrolled, .biometryNotEnrolled), (kLAErrorBiometryLockout, .biometryLockout),
            (kLAErrorAppCancel, .appCancel), (kLAErrorInvalidContext, .invalidContext),
            (kLAErrorCompanionNotAvailable, .companionNotAvailable), (kLAErrorBiometryNotPaired, .biometryNotPaired),
            (kLAErrorBiometryDisconnected, .biometryDisconnected), (kLAErrorInvalidDimensions, .invalidDimensions),
            (kLAErrorNotInteractive, .notInteractive),
        ]
        for (constant, code) in errors { #expect(Int(constant) == code.rawValue) }
        #expect(kLAErrorDomain == LAErrorDomain)
        #expect(Int(kLAPolicyDeviceOwnerAuthentication) == LAPolicy.deviceOwnerAuthentication.rawValue)
        #expect(
            Int(kLAPolicyDeviceOwnerAuthenticationWithCompanion) == LAPolicy.deviceOwnerAuthenticationWithWatch.rawValue
        )
        #expect(Int(kLACredentialTypeApplicationPassword) == LACredentialType.applicationPassword.rawValue)
        #expect(Int(kLABiometryTypeFaceID) == LABiometryType.faceID.rawValue)
        #expect(Int(kLACompanionTypeVision) == LACompanionType.vision.rawValue)
        #expect(Int(kLAAccessControlOperationUseKeyKeyExchange) == LAAccessControlOperation.useKeyKeyExchange.rawValue)
    }
}
