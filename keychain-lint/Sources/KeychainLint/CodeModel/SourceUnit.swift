/// The languages the analyzer reads as code.
package enum SourceLanguage: String, Sendable {
    case swift
    case objectiveC
}

package struct VariableDecl: Sendable {
    package var name: String
    package var isConstant: Bool
    package var typeName: String?
    package var initializer: Expr?
    /// Attribute names such as `AppStorage`, with their arguments.
    package var attributes: [AttributeUse]
    package var position: SourcePosition
    /// Conditions of enclosing `#if` clauses, outermost first.
    package var compilationConditions: [String]
}

package struct ImportDecl: Sendable {
    package var name: String
    package var position: SourcePosition
}

package struct AttributeUse: Sendable {
    package var name: String
    package var arguments: [Argument]
}

package struct FunctionDecl: Sendable {
    package var name: String
    /// Argument labels, `_` for none, so `remove(_:)` and `remove(at:)` differ.
    package var labels: [String]
    package var parameters: [String]
    package var body: Block
    package var position: SourcePosition
    package var compilationConditions: [String]
    /// The type or extension the function is declared in (`UserDefaults` for `extension UserDefaults`).
    package var enclosingType: String? = nil
    /// True when the body gives back a value: a Swift function or subscript with a non-Void result, or a getter. A
    /// one-expression body then returns that expression; in a Void body, an initializer or a setter it is discarded.
    package var returnsValue: Bool = false

    package var signature: String { name + "(" + labels.map { $0 + ":" }.joined() + ")" }
}

/// Everything the rules need from one Swift or Objective-C file.
package struct SourceUnit: Sendable {
    package var path: String
    package var language: SourceLanguage
    package var imports: [ImportDecl]
    /// Functions, methods, initializers, accessors and closures stored in properties, at any nesting depth.
    package var functions: [FunctionDecl]
    /// Variables declared outside function bodies (globals and type members).
    package var properties: [VariableDecl]
    /// Top-level statements (Swift scripts and `main.swift`).
    package var topLevel: Block
    /// Why the file was not analysed (it nests too deeply to parse safely); nil when it was.
    package var skipReason: String? = nil
}

/// A file that was read but not analysed, and why; reported in every output format so a skip is never silent.
public struct SkippedFile: Sendable, Equatable {
    public var path: String
    public var reason: String
}
