import Testing

@testable import KeychainLint

@Suite struct ReadErrorRuleTests {
    @Test func destructiveHandlersOnIntactItemErrorsAreReported() {
        let source = """
            func token(query: [String: Any]) -> Data? {
                var result: AnyObject?
                let status = SecItemCopyMatching(query as CFDictionary, &result)
                if status != errSecSuccess {
                    SecItemDelete(query as CFDictionary)
                    return nil
                }
                return result as? Data
            }
            func key(query: [String: Any]) -> SecKey? {
                var result: AnyObject?
                let status = SecItemCopyMatching(query as CFDictionary, &result)
                guard status == errSecSuccess else {
                    regenerateSigningKey()
                    return nil
                }
                return nil
            }
            func session(query: [String: Any]) {
                var result: AnyObject?
                switch SecItemCopyMatching(query as CFDictionary, &result) {
                case errSecSuccess: break
                case errSecItemNotFound: createNewToken()
                default: resetKeychain()
                }
                if SecItemCopyMatching(query as CFDictionary, &result) == errSecInteractionNotAllowed {
                    clearStoredCredentials()
                }
            }
            """
        #expect(locations(of: "KL202", in: source) == ["5:9", "14:9", "24:14", "27:9"])
    }

    @Test func correctHandlersStaySilent() {
        let source = """
            func token(query: [String: Any]) -> Data? {
                var result: AnyObject?
                let status = SecItemCopyMatching(query as CFDictionary, &result)
                if status == errSecItemNotFound {
                    SecItemDelete(query as CFDictionary)
                    generateNewKey()
                    return nil
                }
                if status == errSecSuccess {
                    return result as? Data
                } else if status == errSecInteractionNotAllowed {
                    scheduleRetry()
                }
                switch status {
                case errSecItemNotFound: SecItemDelete(query as CFDictionary)
                case errSecInteractionNotAllowed: scheduleRetry()
                default: break
                }
                if status != errSecSuccess && status != errSecInteractionNotAllowed
                    && status != errSecAuthFailed && status != errSecUserCanceled
                    && status != errSecMissingEntitlement && status != errSecNotAvailable {
                    SecItemDelete(query as CFDictionary)
                }
                if status != errSecSuccess {
                    items.removeAll()
                }
                return nil
            }
            """
        #expect(locations(of: "KL202", in: source).isEmpty)
    }

    @Test func objectiveCElseBranchIsReported() {
        let source = """
            - (NSData *)read:(NSDictionary *)query {
                CFTypeRef result = NULL;
                OSStatus status = SecItemCopyMatching((__bridge CFDictionaryRef)query, &result);
                if (status == errSecSuccess) {
                    return (__bridge_transfer NSData *)result;
                } else {
                    SecItemDelete((__bridge CFDictionaryRef)query);
                }
                return nil;
            }
            """
        #expect(locations(of: "KL202", in: source, path: "Reader.m") == ["7:9"])
    }
}
