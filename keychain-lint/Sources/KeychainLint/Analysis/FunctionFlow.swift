/// One call to a SecItem function (or to a module function that deletes items) and the dictionaries it got.
package struct KeychainCall: Sendable {
    package var function: KeychainFunction
    package var call: Expr
    package var path: BranchPath
    /// Order of the call in the function's text.
    package var sequence: Int
    /// The first dictionary argument: the item to add, or the query.
    package var query: DictionarySnapshot?
    /// SecItemUpdate's attributes to update.
    package var attributes: DictionarySnapshot?
    /// SecItemCopyMatching's result variable (`&result`).
    package var resultVariable: String?
    /// True for a call to one of the module's own functions that deletes items.
    package var isWrapperDelete = false
    /// Conditions of the `#if` clauses inside the function that enclose the call.
    package var compilationConditions: [String] = []
}

/// What the flow analysis learnt about one function body.
package struct FunctionFlow {
    package var calls: [KeychainCall]
    package var dictionaries: [TrackedDictionary]
    /// Variables holding a SecItem call's status, mapped to the index of that call in `calls`.
    package var statusVariables: [String: Int]
    /// Variables that hold the status (or the result) of a read: SecItemCopyMatching or a module function that
    /// calls it, at any assignment.
    package var readStatusVariables: Set<String> = []
    /// Local names bound to an expression, to follow aliases of constants.
    package var locals: [String: Expr]
}
