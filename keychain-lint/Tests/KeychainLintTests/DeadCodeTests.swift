import Testing

@testable import KeychainLint

/// `#if false` (Swift) and `#if 0` (Objective-C) clauses are never compiled: nothing in them is reported, while
/// their `#else` and every other condition are still read (reviewer's case c15).
@Suite struct DeadCodeTests {
    static let alwaysItem = """
        let old: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
            kSecAttrAccessible as String: kSecAttrAccessibleAlways, kSecValueData as String: data]
        SecItemAdd(old as CFDictionary, nil)
        """

    @Test func swiftIfFalseIsPruned() {
        let source = "import Security\nfunc save(_ data: Data) {\n#if false\n" + Self.alwaysItem + "\n#endif\n}\n"
        #expect(locations(of: "KL101", in: source).isEmpty)
    }

    @Test func swiftIfFalseAtTypeLevelIsPruned() {
        let source =
            "import Security\nstruct S {\n#if false\nfunc save(_ data: Data) {\n" + Self.alwaysItem + "\n}\n#endif\n}\n"
        #expect(locations(of: "KL101", in: source).isEmpty)
    }

    @Test func swiftElseOfIfFalseAndOtherConditionsAreRead() {
        let elseBranch =
            "import Security\nfunc save(_ data: Data) {\n#if false\nprint(1)\n#else\n" + Self.alwaysItem
            + "\n#endif\n}\n"
        let debug = "import Security\nfunc save(_ data: Data) {\n#if DEBUG\n" + Self.alwaysItem + "\n#endif\n}\n"
        #expect(locations(of: "KL101", in: elseBranch) == ["7:35"])
        #expect(locations(of: "KL101", in: debug) == ["5:35"])
    }

    @Test func objectiveCIfZeroIsPruned() {
        let source = """
            #import <Security/Security.h>
            @implementation Legacy
            - (void)save:(NSData *)data {
            #if 0
                NSDictionary *old = @{ (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleAlways };
                SecItemAdd((__bridge CFDictionaryRef)old, NULL);
            #if DEBUG
                NSLog(@"nested");
            #endif
            #else
                NSDictionary *live = @{ (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleAlways };
                SecItemAdd((__bridge CFDictionaryRef)live, NULL);
            #endif
            #if 0
                NSDictionary *older = @{ (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleAlways };
            #endif
            }
            @end
            """
        #expect(locations(of: "KL101", in: source, path: "Legacy.m") == ["11:75"])
    }
}
