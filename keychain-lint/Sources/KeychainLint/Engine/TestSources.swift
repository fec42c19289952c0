/// Decides whether a file is a test: by the folder of a test target or by the test framework it imports, never by
/// a file name that merely ends in Test or Spec (a demo `PinLoginTest.swift` or a class `QuerySpec.m` ships).
enum TestSources {
    /// Modules only test code imports.
    private static let testModules: Set<String> = [
        "XCTest", "Testing", "Quick", "Nimble", "SnapshotTesting", "KIF", "OCMock", "Specta", "Expecta",
        "OHHTTPStubs", "ViewInspector",
    ]

    /// A directory of a test target: `Tests/`, `AppTests/`, `AppUITests/`, `Specs/`. The file's own name is
    /// not looked at.
    static func isInTestDirectory(_ relativePath: String) -> Bool {
        let components = relativePath.split(separator: "/").dropLast()
        return components.contains { component in
            component.hasSuffix("Tests") || component == "Specs" || component == "Test"
        }
    }

    /// Whether the source imports a test framework: `import XCTest`, `@testable import`, `#import <XCTest/...>`,
    /// `@import Quick;`.
    static func importsTestFramework(_ text: String) -> Bool {
        var checkedLines = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            checkedLines += 1
            if checkedLines > 400 { break }
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            guard
                trimmed.hasPrefix("import") || trimmed.hasPrefix("@testable") || trimmed.hasPrefix("#import")
                    || trimmed.hasPrefix("@import") || trimmed.hasPrefix("#include") || trimmed.hasPrefix("@_")
            else { continue }
            if trimmed.hasPrefix("@testable") { return true }
            if let module = importedModule(trimmed), testModules.contains(module) { return true }
        }
        return false
    }

    private static func importedModule(_ line: Substring) -> String? {
        if line.hasPrefix("#import") || line.hasPrefix("#include") {
            guard let open = line.firstIndex(where: { $0 == "<" || $0 == "\"" }) else { return nil }
            let rest = line[line.index(after: open)...]
            return rest.split(separator: "/").first.map(String.init)
        }
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == ";" })
        guard let importIndex = words.firstIndex(where: { $0 == "import" || $0 == "@import" }),
            importIndex + 1 < words.count
        else { return nil }
        var module = words[importIndex + 1]
        // `import struct XCTest.XCTestCase` names a kind first.
        if ["struct", "class", "enum", "protocol", "func", "var", "let", "typealias"].contains(module),
            importIndex + 2 < words.count
        {
            module = words[importIndex + 2]
        }
        return module.split(separator: ".").first.map(String.init)
    }
}
