/// Tokenizes and parses Objective-C source into the code model.
///
/// The parser is forgiving: it understands functions, methods, statements, message sends, literals and casts,
/// and skips what it does not understand rather than failing, so a header full of macros still yields the code
/// the rules need.
package enum ObjectiveCFrontend {
    package static func parse(path: String, source: String) -> SourceUnit {
        let tokenizer = ObjCTokenizer(source: source)
        var parser = ObjCParser(tokens: tokenizer.tokens)
        parser.parseFile()
        if parser.tooDeep {
            return SourceUnit(
                path: path, language: .objectiveC, imports: tokenizer.imports, functions: [], properties: [],
                topLevel: [],
                skipReason: "nesting too deep (more than \(ObjCParser.maximumDepth) nested expressions or blocks)")
        }
        return SourceUnit(
            path: path, language: .objectiveC, imports: tokenizer.imports, functions: parser.functions,
            properties: parser.globals, topLevel: [])
    }
}
