import Testing

@testable import KeychainLint

/// The same rules over Objective-C, whose dictionaries, casts and message sends differ from Swift's.
@Suite struct ObjectiveCRuleTests {
    @Test func accessControlWithAccessibleAndSyncInLiterals() {
        let source = """
            - (void)store:(NSData *)secret access:(SecAccessControlRef)access {
                NSDictionary *item = @{
                    (__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
                    (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleWhenUnlocked,
                    (__bridge id)kSecAttrAccessControl: (__bridge id)access,
                    (__bridge id)kSecAttrSynchronizable: @YES,
                    (__bridge id)kSecValueData: secret,
                };
                SecItemAdd((__bridge CFDictionaryRef)item, NULL);
            }
            """
        #expect(locations(of: "KL301", in: source, path: "Store.m") == ["4:9"])
        #expect(locations(of: "KL302", in: source, path: "Store.m") == ["6:9"])
    }

    @Test func logsAndHardCodedSecrets() {
        let source = """
            static NSString * const kAPISecret = @"Zx9Yw8Vu7Ts6Rq5P";
            static NSString * const kTokenKey = @"auth_token";
            - (void)didLogin:(NSString *)accessToken {
                NSLog(@"logged in with %@", accessToken);
                NSLog(@"logged in, token length %lu", (unsigned long)accessToken.length);
                // NSLog(@"%@", accessToken);
            }
            """
        #expect(locations(of: "KL402", in: source, path: "Login.m") == ["1:38"])
        #expect(locations(of: "KL403", in: source, path: "Login.m") == ["4:33"])
    }

    @Test func plistSuppressionComment() {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
                <key>NSAppTransportSecurity</key>
                <dict>
                    <!-- keychain-lint:ignore KL502 -- a browser must load any site -->
                    <key>NSAllowsArbitraryLoads</key>
                    <true/>
                </dict>
            </dict>
            </plist>
            """
        let report = Linter().lint(files: [SourceFile(path: "Info.plist", text: plist)])
        #expect(report.findings.isEmpty && report.suppressed == 1)
    }
}
