import Foundation
import Testing

@testable import KeychainLint

/// Generated or hostile files nested thousands of levels deep: the run must finish, write its report and say which
/// file it skipped, instead of overflowing the stack (Objective-C) or parsing for hours (Swift).
@Suite struct NestingLimitTests {
    static let keychainItem = """
        NSDictionary *q = @{ (__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
                             (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleAlways };
        SecItemAdd((__bridge CFDictionaryRef)q, NULL);
        """

    @Test func objectiveCParenthesesTooDeepAreSkippedAndReported() throws {
        let deep =
            "void f(void) { int x = " + String(repeating: "(", count: 5_000) + "1"
            + String(repeating: ")", count: 5_000) + "; }\n"
        let directory = try TemporaryDirectory()
        try directory.write("Deep.m", deep)
        try directory.write("Store.m", "- (void)save {\n" + Self.keychainItem + "\n}\n")
        let target = directory.path + "/report.sarif"
        let runner = CommandRunner(standardOutput: { _ in }, standardError: { _ in })
        let status = runner.run(arguments: ["--format", "sarif", "--output", target, directory.path])
        #expect(status == .findings)
        let sarif = try String(contentsOfFile: target, encoding: .utf8)
        #expect(sarif.contains("skipped: nesting too deep"))
        #expect(sarif.contains("Deep.m"))
        #expect(sarif.contains("KL101"))
    }

    /// A file the analyser could not read fails the run (status 65) when nothing else does: hiding code in a
    /// deeply nested file must not pass a CI gate as clean; --allow-skipped accepts it.
    @Test func aSkippedFileFailsTheRunUnlessAllowed() throws {
        let directory = try TemporaryDirectory()
        try directory.write("Deep.m", "void f(void) " + String(repeating: "{", count: 2_000))
        try directory.write("Fine.m", "- (void)f { }\n")
        var errors = ""
        let runner = CommandRunner(standardOutput: { _ in }, standardError: { errors += $0 })
        #expect(runner.run(arguments: [directory.path]) == .filesNotAnalysed)
        #expect(CommandRunner.ExitStatus.filesNotAnalysed.rawValue == 65)
        #expect(errors.contains("1 file was not analysed"))
        #expect(runner.run(arguments: ["--allow-skipped", directory.path]) == .clean)
        #expect(runner.run(arguments: ["--fail-on", "never", directory.path]) == .filesNotAnalysed)
    }

    @Test func objectiveCBracesTooDeepAreSkipped() {
        let deep = "void f(void) " + String(repeating: "{", count: 2_000) + String(repeating: "}", count: 2_000)
        let report = Linter().lint(files: [SourceFile(path: "Braces.m", text: deep)])
        #expect(TextReport.render(report).contains("Braces.m: note: skipped: nesting too deep"))
    }

    @Test func objectiveCMessageSendsTooDeepAreSkipped() {
        let deep =
            "void f(void) { id x = " + String(repeating: "@[", count: 3_000) + "@1"
            + String(repeating: "]", count: 3_000) + "; }\n"
        let report = Linter().lint(files: [SourceFile(path: "Arrays.m", text: deep)])
        #expect(TextReport.render(report).contains("Arrays.m: note: skipped: nesting too deep"))
    }

    /// Real code nests far less than the bound and is still analysed in full.
    @Test func objectiveCNestedWithinTheBoundIsAnalysed() {
        let nested =
            "- (void)save {\n int x = " + String(repeating: "(", count: 100) + "1"
            + String(repeating: ")", count: 100) + ";\n" + String(repeating: "if (x) {\n", count: 60)
            + Self.keychainItem + "\n" + String(repeating: "}\n", count: 60) + "}\n"
        let report = Linter().lint(files: [SourceFile(path: "Store.m", text: nested)])
        #expect(report.findings.contains { $0.rule.id == "KL101" })
        #expect(!TextReport.render(report).contains("skipped"))
    }

    /// A local block-pointer declaration `void (^b)(int x);` is one statement: its `)` must not send the parser
    /// past the end of the method, or every such method nests the rest of the file one level deeper and a long
    /// implementation is skipped as too deep.
    @Test func objectiveCBlockPointerDeclarationsDoNotNest() {
        var text = "@implementation X\n"
        for n in 0..<510 { text += "- (void)m\(n) { void (^b\(n))(int x); }\n" }
        text += "- (void)save {\n" + Self.keychainItem + "\n}\n@end\n"
        let report = Linter().lint(files: [SourceFile(path: "Blocks.m", text: text)])
        #expect(!TextReport.render(report).contains("skipped"))
        #expect(report.findings.contains { $0.rule.id == "KL101" })
    }

    /// The other block forms (block parameters, typedef'd blocks, blocks returning blocks, block literals with a
    /// return type, blocks passed as arguments) keep the nesting balanced as well.
    @Test func objectiveCBlockFormsDoNotNest() {
        let forms = [
            "void (^b)(int x) = ^(int x) { (void)x; };",
            "typedef void (^Handler)(NSString *key, BOOL *stop); Handler h = nil;",
            "void (^(^outer)(int))(int) = nil;",
            "int (^square)(int) = ^int (int v) { return v * v; };",
            "NSString *(^name)(void) = ^NSString *(void) { return @\"a\"; };",
            "[self run:^(BOOL ok) { (void)ok; } after:(void (^)(void))nil];",
            "dispatch_async(dispatch_get_main_queue(), ^{ [self reload]; });",
        ]
        for form in forms {
            var text = "@implementation X\n"
            for n in 0..<510 { text += "- (void)m\(n):(void (^)(int x))done { \(form) }\n" }
            text += "- (void)save {\n" + Self.keychainItem + "\n}\n@end\n"
            let report = Linter().lint(files: [SourceFile(path: "Blocks.m", text: text)])
            #expect(!TextReport.render(report).contains("skipped"), "\(form)")
            #expect(report.findings.contains { $0.rule.id == "KL101" }, "\(form)")
        }
    }
}
