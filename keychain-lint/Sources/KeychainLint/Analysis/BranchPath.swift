/// Where a statement sits among exclusive branches: one step per enclosing `if`/`switch`/`#if` arm.
package struct BranchPath: Sendable, Hashable {
    struct Step: Sendable, Hashable {
        var branch: Int
        var arm: Int
    }

    var steps: [Step] = []

    func appending(branch: Int, arm: Int) -> BranchPath {
        BranchPath(steps: steps + [Step(branch: branch, arm: arm)])
    }

    /// Whether the other path lies within every arm of this one: code there runs only where code here can.
    func isPrefix(of other: BranchPath) -> Bool {
        steps.count <= other.steps.count && zip(steps, other.steps).allSatisfy { $0 == $1 }
    }

    /// Two places can run in one execution unless they sit in different arms of the same branch.
    func canRunTogether(with other: BranchPath) -> Bool {
        for step in steps {
            if other.steps.contains(where: { $0.branch == step.branch && $0.arm != step.arm }) { return false }
        }
        return true
    }
}
