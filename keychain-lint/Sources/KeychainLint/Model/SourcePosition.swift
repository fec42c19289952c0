/// A place in a source file: 1-based line and column (columns count UTF-8 bytes, as compilers do) and the
/// 0-based UTF-8 offset used to apply fixes.
public struct SourcePosition: Sendable, Hashable, Codable, Comparable {
    public var line: Int
    public var column: Int
    public var offset: Int

    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool { lhs.offset < rhs.offset }

    static let unknown = SourcePosition(line: 1, column: 1, offset: 0)
}
