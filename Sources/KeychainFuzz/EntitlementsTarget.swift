import Foundation
import KeychainCore

/// The entitlements reader (`KEYCHAIN_ENTITLEMENTS`, `security --entitlements`): any bytes, XML, binary or
/// OpenStep property lists; anything but a dictionary is an error, and the identity read has no duplicate groups.
extension FuzzTarget {
    static let entitlements = FuzzTarget(
        name: "entitlements",
        summary: "CallerIdentity.entitlements of the input as a property list"
    ) { bytes in
        guard let identity = try? CallerIdentity.entitlements(Data(bytes), source: "fuzz input") else { return }
        fuzzCheck(Set(identity.accessGroups).count == identity.accessGroups.count, "duplicate access groups")
        if let identifier = identity.applicationIdentifier {
            fuzzCheck(identity.accessGroups.contains(identifier), "the application identifier is not a group")
        }
    }
}
