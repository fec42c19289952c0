import SystemCalls

/// The variables of an environment, looked up one at a time.
///
/// The process's own are read with `getenv`, so opening a keychain never copies the whole environment into a
/// dictionary (that alone cost a `security` lookup a tenth of a millisecond). Tests and the command line pass a
/// dictionary instead.
public struct EnvironmentVariables: Sendable {
    private let lookup: @Sendable (String) -> String?

    /// This process's environment.
    public static let process = EnvironmentVariables { SystemCalls.environmentValue($0) }

    /// An environment given as a dictionary.
    public init(_ variables: [String: String]) {
        lookup = { variables[$0] }
    }

    private init(lookup: @escaping @Sendable (String) -> String?) {
        self.lookup = lookup
    }

    /// The value of `name`; an empty value counts as unset, as the keychain's variables are documented.
    public subscript(name: String) -> String? {
        lookup(name).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The same environment with `name` unset.
    public func removing(_ name: String) -> EnvironmentVariables {
        let lookup = self.lookup
        return EnvironmentVariables { $0 == name ? nil : lookup($0) }
    }
}

extension EnvironmentVariables: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
