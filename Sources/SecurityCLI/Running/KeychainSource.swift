import Foundation
import KeychainCore

/// Where the runner's keychain comes from before the identity options apply.
public enum KeychainSource: Sendable {
    /// The process environment, read as `KeychainConfiguration.fromEnvironment` does (`KEYCHAIN_HOME`,
    /// `KEYCHAIN_ENTITLEMENTS`, ...).
    case environment(EnvironmentVariables)
    /// A configuration given as a value (tests); its identity is treated as a program's without
    /// `KEYCHAIN_ENTITLEMENTS`.
    case configuration(KeychainConfiguration)

    /// Whether `KEYCHAIN_ENTITLEMENTS` sets the process's identity, which then bounds every command.
    var confinesIdentity: Bool {
        guard case .environment(let environment) = self else { return false }
        return environment["KEYCHAIN_ENTITLEMENTS"] != nil
    }

    /// The configuration to open, acting as the identity the options choose.
    ///
    /// `KEYCHAIN_ENTITLEMENTS` is the process's identity, as a code signature's entitlements are on macOS, and
    /// so the limit of what the options can choose (a wrapper that sets it confines the command): `-G GROUP`
    /// narrows each operation to GROUP, which it must grant; `--entitlements FILE` may name an identity whose
    /// groups it all grants. An unreadable variable fails every command. Without the variable, `--entitlements
    /// FILE` is the identity and `-G GROUP` alone acts as an identity whose only group is GROUP.
    /// - Throws: `KeychainError` (errSecMissingEntitlement when the options ask for more than the variable
    ///   grants, errSecParam when an entitlements file cannot be read).
    func configuration(for options: IdentityOptions) throws -> KeychainConfiguration {
        var configuration: KeychainConfiguration
        switch self {
        case .configuration(let given): configuration = given
        case .environment(let environment): configuration = try KeychainConfiguration.fromEnvironment(environment)
        }
        let isConfined = confinesIdentity
        if let file = options.entitlementsFile {
            let chosen = try CallerIdentity.entitlements(at: URL(fileURLWithPath: file))
            if isConfined { try Self.check(chosen, within: configuration.identity, file: file) }
            configuration.identity = chosen
        } else if let group = options.accessGroup, !isConfined {
            configuration.identity = CallerIdentity(applicationIdentifier: nil, accessGroups: [group])
        }
        // Confined, `-G` stays an access group of each operation, which the engine checks against the identity.
        return configuration
    }

    /// Refuses an `--entitlements` identity with a group `KEYCHAIN_ENTITLEMENTS` does not grant.
    private static func check(_ chosen: CallerIdentity, within limit: CallerIdentity, file: String) throws {
        let granted = Set(limit.accessGroups)
        let extra = chosen.accessGroups.filter { !granted.contains($0) }
        guard extra.isEmpty else {
            throw KeychainError.missingEntitlement.because(
                "KEYCHAIN_ENTITLEMENTS confines this command to the groups "
                    + "\(limit.accessGroups.joined(separator: ", ")); --entitlements \(file) asks for "
                    + "\(extra.joined(separator: ", ")), which it does not grant")
        }
    }
}
