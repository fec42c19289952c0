/// The access groups a request covers: some of the caller's, or, for the keychain's owner, every group there is.
enum GroupScope: Sendable, Equatable {
    /// These groups only (none, for a caller without groups: then nothing is in scope).
    case only([String])
    /// Every group: the owner's search, update or delete, which no list of groups bounds.
    case every

    /// Every group `caller` may act in.
    init(of caller: CallerIdentity) {
        self = caller.isOwner ? .every : .only(caller.accessGroups)
    }

    /// Whether an item of `group` is within the scope.
    func contains(_ group: String) -> Bool {
        switch self {
        case .only(let groups): groups.contains(group)
        case .every: true
        }
    }
}
