import Testing

@testable import KeychainLint

@Suite struct FrontEndTests {
    @Test func objectiveCTokenizerSkipsCommentsAndKeepsPositions() {
        let source = """
            #import <Security/Security.h>
            /* kSecAttrAccessibleAlways */ id a = @"kSecAttrAccessibleAlways"; // kSecAttrAccessibleAlways
            id b = @{ @"k": @[@1, @YES] };
            """
        let tokens = ObjCTokenizer(source: source).tokens
        #expect(!tokens.contains { $0.kind == .identifier && $0.text == "kSecAttrAccessibleAlways" })
        let string = tokens.first { $0.kind == .objcString }
        #expect(string?.text == "kSecAttrAccessibleAlways")
        #expect(string?.position.line == 2 && string?.position.column == 39)
        #expect(tokens.contains { $0.isPunctuation("@{") } && tokens.contains { $0.isPunctuation("@[") })
        #expect(ObjCTokenizer(source: source).imports.map(\.name) == ["Security"])
    }

    @Test func objectiveCMessageSendsBecomeCalls() throws {
        let unit = ObjectiveCFrontend.parse(
            path: "A.m", source: "- (void)f { [dict setObject:value forKey:(__bridge id)kSecClass]; }")
        let function = try #require(unit.functions.first)
        #expect(function.name == "f")
        guard case .expression(let call)? = function.body.first?.kind else {
            Issue.record("expected an expression statement")
            return
        }
        #expect(call.calleeName == "setObject")
        #expect(call.callArguments.map(\.label) == [nil, "forKey"])
        #expect(call.callArguments.last?.value.unwrapped.terminalName == "kSecClass")
    }

    @Test func plistParserKeepsLines() throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
                <key>Name</key>
                <string>A &amp; B</string>
                <key>List</key>
                <array><integer>1</integer><true/></array>
            </dict>
            </plist>
            """
        let root = try #require(XMLPlistParser.parse(plist))
        #expect(root["Name"]?.stringValue == "A & B")
        #expect(root["Name"]?.position.line == 5)
        #expect(root.entries.map(\.keyPosition.line) == [4, 6])
        #expect(root["List"]?.elements.count == 2)
        #expect(XMLPlistParser.parse("bplist00garbage") == nil)
    }

    @Test func swiftOperatorsFoldWithStandardPrecedence() throws {
        let unit = SwiftFrontend.parse(path: "A.swift", source: "let a = x == y && z as String != w")
        let value = try #require(unit.properties.first?.initializer)
        guard case .binary("&&", let lhs, let rhs) = value.kind else {
            Issue.record("expected && at the top")
            return
        }
        guard case .binary("==", _, _) = lhs.kind, case .binary("!=", let cast, _) = rhs.kind,
            case .cast(_, "String", .coerce) = cast.kind
        else {
            Issue.record("unexpected fold")
            return
        }
    }
}
