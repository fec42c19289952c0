import Foundation
import KeychainCore

/// The property groups of a SecItem dictionary (Apple: "Item class, attribute, search, return type, value
/// type" plus the `kSecUse…` options); each function accepts only some of them.
enum PropertyGroup: Hashable {
    case itemClass, attribute, search, returnType, value, use
}

/// A SecItem dictionary after checking every key and value: typed, with the groups it used.
struct SecDictionary {
    var itemClass: ItemClass?
    var attributes: [AttributeKey: AttributeValue] = [:]
    var accessGroup: String?
    var synchronizable: SynchronizableFilter?
    var accessibility: Accessibility?
    var accessControl: AccessControlPolicy?
    var limit: MatchLimit?
    var caseInsensitive = false
    var returns: ReturnOptions = []
    var data: [UInt8]?
    var persistentReference: PersistentReference?
    /// `kSecValueRef`: a key object.
    var valueReference: SecKey?
    /// `kSecValueRef`: a certificate object.
    var certificateReference: SecCertificate?
    /// `kSecValueRef`: an identity object.
    var identityReference: SecIdentity?
    /// Whether the dictionary held a key of `group`.
    func holds(_ group: PropertyGroup) -> Bool { keyGroups.contains { $0.group == group } }
    /// `kSecUseAuthenticationContext`'s context and `kSecUseAuthenticationUI`'s policy.
    var authenticationContext: AuthenticationContextID?
    var authenticationUI: AuthenticationUI?
    /// `kSecUseNoAuthenticationUI` set true: what an absent `kSecUseAuthenticationUI` means then is Fail.
    var noAuthenticationUI = false
    var operationPrompt: String?
    /// The keys the dictionary held, in its order, with their groups. Only explanations look at them, so they are
    /// kept as a list and grouped on demand.
    var keyGroups: [(key: String, group: PropertyGroup)] = []
    /// The keys the dictionary held, by group, as the caller spelled them (for explanations).
    var keysByGroup: [PropertyGroup: [String]] {
        var grouped: [PropertyGroup: [String]] = [:]
        for (key, group) in keyGroups { grouped[group, default: []].append(key) }
        return grouped
    }
    /// Keys taken and without effect, as on iOS, for `KEYCHAIN_DEBUG` to name.
    var ignoredKeys: [String] = []
    /// The certificate search keys (`kSecMatchIssuers`, `kSecMatchPolicy`, …), which the face applies.
    var certificateMatch = CertificateMatch()

    /// What the engine is asked to return: with other return keys, kSecReturnRef brings the attributes, which
    /// Apple's server puts in the dictionary it builds a reference from, and so does kSecReturnData, which Apple's
    /// client always asks for with the attributes (only data alone comes back bare).
    var engineReturns: ReturnOptions {
        let bringsAttributes = returns.contains(.reference) || returns.contains(.data)
        return bringsAttributes && returns != .reference && returns != .data ? returns.union(.attributes) : returns
    }
}

/// What a key is, by its raw string.
enum PropertyKey {
    case itemClass
    case accessGroup, synchronizable, accessible, accessControl
    case attribute(AttributeKey)
    case matchLimit, caseInsensitive
    case returnType(ReturnOptions)
    case valueData, valuePersistentRef, valueRef
    case accepted(PropertyGroup)  // understood and without effect here (prompts, data protection keychain)
    case ignoredSearch  // accepted by Apple's query parser and never applied by the iOS keychain
    case certificateMatch  // a certificate search key (CertificateMatch)
    case fileKeychain(PropertyGroup)  // a key of macOS file keychains, which this keychain does not have
    case authenticationUI, authenticationContext, operationPrompt
    case noAuthenticationUI  // the deprecated kSecUseNoAuthenticationUI

    static func of(_ raw: String) -> PropertyKey {
        table[raw] ?? .attribute(AttributeKey(raw))
    }

    private static let table: [String: PropertyKey] = {
        var table: [String: PropertyKey] = [
            "class": .itemClass, "agrp": .accessGroup, "sync": .synchronizable, "pdmn": .accessible,
            "accc": .accessControl, "m_Limit": .matchLimit, "m_CaseInsensitive": .caseInsensitive,
            "r_Data": .returnType(.data), "r_Attributes": .returnType(.attributes), "r_Ref": .returnType(.reference),
            "r_PersistentRef": .returnType(.persistentReference), "v_Data": .valueData,
            "v_PersistentRef": .valuePersistentRef, "v_Ref": .valueRef,
            // kSecUseDataProtectionKeychain: this keychain always has data-protection semantics.
            "nleg": .accepted(.use), "u_OpPrompt": .operationPrompt, "u_NoAuthUI": .noAuthenticationUI,
            "u_AuthCtx": .authenticationContext, "u_AuthUI": .authenticationUI,
            "u_ItemList": .fileKeychain(.use), "u_Keychain": .fileKeychain(.use),
            "m_SearchList": .fileKeychain(.search),
            "m_DiacriticInsensitive": .ignoredSearch, "m_WidthInsensitive": .ignoredSearch,
        ]
        for search in CertificateMatch.rawKeys { table[search] = .certificateMatch }
        return table
    }()

    var group: PropertyGroup {
        switch self {
        case .itemClass: .itemClass
        case .accessGroup, .synchronizable, .accessible, .accessControl, .attribute: .attribute
        case .matchLimit, .caseInsensitive, .ignoredSearch, .certificateMatch: .search
        case .returnType: .returnType
        case .valueData, .valuePersistentRef, .valueRef: .value
        case .authenticationUI, .authenticationContext, .operationPrompt, .noAuthenticationUI: .use
        case .accepted(let group), .fileKeychain(let group): group
        }
    }
}
