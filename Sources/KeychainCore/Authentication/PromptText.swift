import Foundation
import KeychainMessages

/// What a prompt says: who asks, as the keychain resolved the caller (keychaind from the kernel and its policy,
/// never from the client), then the app's reason. The asker comes first and the reason is kept on its line, so
/// a reason such as "security wants to act for the keychain's owner" still reads as the asking app's words.
package enum PromptText {
    /// A prompt to open an item or use a key: the reason (`kSecUseOperationPrompt`, else the context's
    /// `localizedReason`), or the keychain's default.
    package static func item(asker: CallerIdentity, reason: String?) -> String {
        let language = MessageLanguage.current
        guard let reason = shown(reason) else {
            return PromptMessages.usingAnItem(asker: asker.applicationIdentifier, in: language)
        }
        return PromptMessages.asking(asker: asker.applicationIdentifier, reason: reason, in: language)
    }

    /// A prompt of `LAContext.evaluatePolicy` or `evaluateAccessControl`.
    package static func evaluation(asker: CallerIdentity, reason: String?) -> String {
        let language = MessageLanguage.current
        guard let reason = shown(reason) else {
            return PromptMessages.authenticating(asker: asker.applicationIdentifier, in: language)
        }
        return PromptMessages.asking(asker: asker.applicationIdentifier, reason: reason, in: language)
    }

    /// keychaind's owner-rights claim.
    package static func ownerClaim(asker: CallerIdentity, reason: String?) -> String {
        PromptMessages.actingAsOwner(asker: asker.applicationIdentifier, reason: shown(reason), in: .current)
    }

    /// The app's reason on one line: line breaks, other control characters and the marks that reorder text
    /// become spaces, so that no part of it looks like a line the keychain wrote. Nil when nothing is left.
    static func shown(_ reason: String?) -> String? {
        guard let reason else { return nil }
        let scalars = reason.unicodeScalars.map { scalar -> Unicode.Scalar in
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: return " "
            default: return scalar.properties.isBidiControl ? " " : scalar
            }
        }
        let line = String(String.UnicodeScalarView(scalars)).trimmingCharacters(in: .whitespaces)
        return line.isEmpty ? nil : line
    }
}
