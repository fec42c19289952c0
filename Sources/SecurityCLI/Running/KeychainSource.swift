import Foundation
import KeychainCore

/// Where the runner's keychain comes from before the identity options apply.
public enum KeychainSource: Sendable {
    /// The process environment, read as `KeychainConfiguration.fromEnvironment` does (`KEYCHAIN_HOME`,
    /// `KEYCHAIN_ENTITLEMENTS`, ...).
    case environment(EnvironmentVariables)
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
        case .environment(let environment):
            // Replaced below when an identity option is given; a broken one must not fail the run then.
            let replacing = options.entitlementsFile != nil || options.accessGroup != nil
            configuration = try KeychainConfiguration.fromEnvironment(
                replacing ? environment.removing("KEYCHAIN_ENTITLEMENTS") : environment)
        }
        if let file = options.entitlementsFile {
            configuration.identity = try CallerIdentity.entitlements(at: URL(fileURLWithPath: file))
        } else if let group = options.accessGroup {
            configuration.identity = CallerIdentity(applicationIdentifier: nil, accessGroups: [group])
        }
        return configuration
    }
}
