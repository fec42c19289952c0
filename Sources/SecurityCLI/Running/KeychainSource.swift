import Foundation
import KeychainCore

/// Where the runner's keychain comes from before the identity options apply.
public enum KeychainSource: Sendable {
    /// The process environment, read as `KeychainConfiguration.fromEnvironment` does (`KEYCHAIN_HOME`,
    /// `KEYCHAIN_ENTITLEMENTS`, ...).
    case environment([String: String])
    /// A configuration given as a value (tests).
    case configuration(KeychainConfiguration)

    /// The configuration to open, acting as the identity the options choose: `--entitlements FILE` reads that
    /// file as library callers' `KEYCHAIN_ENTITLEMENTS` is read; `-G GROUP` alone acts as an identity whose
    /// only group is GROUP.
    /// - Throws: `KeychainError` when the entitlements cannot be read.
    func configuration(for options: IdentityOptions) throws -> KeychainConfiguration {
        var configuration: KeychainConfiguration
        switch self {
        case .configuration(let given):
            configuration = given
        case .environment(var environment):
            if options.entitlementsFile != nil || options.accessGroup != nil {
                environment["KEYCHAIN_ENTITLEMENTS"] = nil  // replaced below; a broken one must not fail the run
            }
            configuration = try KeychainConfiguration.fromEnvironment(environment)
        }
        if let file = options.entitlementsFile {
            configuration.identity = try CallerIdentity.entitlements(at: URL(fileURLWithPath: file))
        } else if let group = options.accessGroup {
            configuration.identity = CallerIdentity(applicationIdentifier: nil, accessGroups: [group])
        }
        return configuration
    }
}
