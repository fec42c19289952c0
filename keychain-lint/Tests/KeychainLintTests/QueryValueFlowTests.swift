import Testing

@testable import KeychainLint

/// KL204–KL206 read a query's match limit and class as every value that reaches the call: the arms of an `if`,
/// a `switch` or a conditional, a helper of the file, but not an arm a literal condition never takes.
@Suite struct QueryValueFlowTests {
    func messages(_ rule: String, in text: String) -> [String] {
        findings(in: text).filter { $0.rule.id == rule }.map(\.message)
    }

    // MARK: KL204 invalidUpdateDictionary

    static let update = """
        import Security
        func rename(account: String, to newName: String, everyMatch: Bool) -> OSStatus {
            var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account]
            var limit = kSecMatchLimitOne
            if everyMatch {
                limit = kSecMatchLimitAll
            }
            query[kSecMatchLimit as String] = limit
            let attributes: [String: Any] = [kSecAttrAccount as String: newName]
            return SecItemUpdate(query as CFDictionary, attributes as CFDictionary)
        }
        """

    @Test func aMatchLimitOfOneOnOneBranchOfAnUpdateIsReported() {
        #expect(locations(of: "KL204", in: Self.update) == ["8:11"])
        let message = messages("KL204", in: Self.update).first ?? ""
        #expect(message.contains("kSecMatchLimitOne can be this update's match limit here"))
        #expect(message.contains("`limit` holds it on one branch (line 4)"))
        let switched = """
            import Security
            enum Scope { case one, all }
            func rename(_ query: [String: Any], _ attributes: [String: Any], scope: Scope) -> OSStatus {
                var search: [String: Any] = [kSecClass as String: kSecClassGenericPassword]
                switch scope {
                case .one: search[kSecMatchLimit as String] = kSecMatchLimitOne
                case .all: search[kSecMatchLimit as String] = kSecMatchLimitAll
                }
                return SecItemUpdate(search as CFDictionary, attributes as CFDictionary)
            }
            """
        #expect(locations(of: "KL204", in: switched) == ["6:23"])
    }

    @Test func anUpdateLimitFromAHelperOfTheFileIsFollowed() {
        let source = """
            import Security
            struct Store {
                var legacy = false
                func searchLimit() -> CFString {
                    if legacy { return kSecMatchLimitOne }
                    return kSecMatchLimitAll
                }
                func allLimit() -> CFString { kSecMatchLimitAll }
                func rename(_ attributes: [String: Any]) -> OSStatus {
                    let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                                kSecMatchLimit as String: searchLimit()]
                    return SecItemUpdate(query as CFDictionary, attributes as CFDictionary)
                }
                func renameAll(_ attributes: [String: Any]) -> OSStatus {
                    let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                                kSecMatchLimit as String: allLimit()]
                    return SecItemUpdate(query as CFDictionary, attributes as CFDictionary)
                }
            }
            """
        #expect(locations(of: "KL204", in: source) == ["11:37"])
        #expect(messages("KL204", in: source).first?.contains("line 5 in `searchLimit`") == true)
    }

    @Test func aDeadArmOrAllLimitsOnEveryPathLeaveAnUpdateSilent() {
        let dead = Self.update.replacingOccurrences(
            of: "var limit = kSecMatchLimitOne\n    if everyMatch {\n        limit = kSecMatchLimitAll\n    }",
            with: "let limit = false ? kSecMatchLimitOne : kSecMatchLimitAll")
        #expect(dead != Self.update)
        #expect(locations(of: "KL204", in: dead).isEmpty)
        let everyPath = Self.update.replacingOccurrences(
            of: "var limit = kSecMatchLimitOne", with: "var limit = kSecMatchLimitAll")
        #expect(locations(of: "KL204", in: everyPath).isEmpty)
        // A limit the analyzer cannot read is still reported: only kSecMatchLimitAll is accepted.
        let unknown = Self.update.replacingOccurrences(
            of: "query[kSecMatchLimit as String] = limit", with: "query[kSecMatchLimit as String] = settings.limit")
        #expect(locations(of: "KL204", in: unknown) == ["8:11"])
    }

    // MARK: KL205 matchLimitInDelete

    static let delete = """
        import Security
        func remove(service: String, purgeAll: Bool) -> OSStatus {
            var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service]
            var limit = kSecMatchLimitOne
            if purgeAll {
                limit = kSecMatchLimitAll
            }
            query[kSecMatchLimit as String] = limit
            return SecItemDelete(query as CFDictionary)
        }
        """

    @Test func aLimitOfOneOnOneBranchOfADeleteIsReported() {
        #expect(locations(of: "KL205", in: Self.delete) == ["8:11"])
        let message = messages("KL205", in: Self.delete).first ?? ""
        #expect(message.contains("kSecMatchLimitOne can be this delete's limit here"))
        #expect(message.contains("one branch (line 4)"))
        let ternary = """
            import Security
            func remove(service: String, single: Bool) -> OSStatus {
                let query: [String: Any] = [kSecAttrService as String: service,
                                            kSecMatchLimit as String: single ? kSecMatchLimitOne : kSecMatchLimitAll]
                return SecItemDelete(query as CFDictionary)
            }
            """
        #expect(locations(of: "KL205", in: ternary) == ["4:33"])
    }

    @Test func aDeleteLimitFromAHelperOfTheFileIsFollowed() {
        let source = """
            import Security
            private func deleteLimit() -> CFString { kSecMatchLimitOne }
            func remove(service: String) -> OSStatus {
                SecItemDelete([kSecAttrService: service, kSecMatchLimit: deleteLimit()] as CFDictionary)
            }
            """
        #expect(locations(of: "KL205", in: source) == ["4:46"])
        #expect(messages("KL205", in: source).first?.contains("line 2 in `deleteLimit`") == true)
    }

    @Test func aDeadArmOrNoLimitOfOneLeaveADeleteSilent() {
        let dead = """
            import Security
            func remove(service: String) -> OSStatus {
                var limit = kSecMatchLimitAll
                if false {
                    limit = kSecMatchLimitOne
                }
                let single = true ? kSecMatchLimitAll : kSecMatchLimitOne
                _ = SecItemDelete([kSecAttrService: service, kSecMatchLimit: single] as CFDictionary)
                return SecItemDelete([kSecAttrService: service, kSecMatchLimit: limit] as CFDictionary)
            }
            """
        #expect(locations(of: "KL205", in: dead).isEmpty)
        let everyPath = Self.delete.replacingOccurrences(
            of: "var limit = kSecMatchLimitOne", with: "var limit = kSecMatchLimitAll")
        #expect(locations(of: "KL205", in: everyPath).isEmpty)
    }

    // MARK: KL206 queryWithoutPrimaryKey

    static let read = """
        import Security
        func token(service: String, internet: Bool) -> Data? {
            let itemClass = internet ? kSecClassInternetPassword : kSecClassGenericPassword
            let query: [String: Any] = [kSecClass as String: itemClass, kSecAttrService as String: service,
                                        kSecReturnData as String: true]
            var result: CFTypeRef?
            SecItemCopyMatching(query as CFDictionary, &result)
            return result as? Data
        }
        """

    @Test func aPasswordClassOnOneBranchOfAReadIsJudged() {
        #expect(locations(of: "KL206", in: Self.read) == ["7:5"])
        let message = messages("KL206", in: Self.read).first ?? ""
        #expect(message.contains("kSecAttrAccount"))
        #expect(message.contains("kSecClassGenericPassword can be its class here"))
        let key = Self.read.replacingOccurrences(
            of: "internet ? kSecClassInternetPassword : kSecClassGenericPassword",
            with: "false ? kSecClassGenericPassword : kSecClassKey")
        #expect(key != Self.read)
        #expect(locations(of: "KL206", in: key).isEmpty)
        let keyed = Self.read.replacingOccurrences(
            of: "kSecReturnData as String: true]",
            with:
                "kSecReturnData as String: true, kSecAttrAccount as String: \"me\", kSecAttrServer as String: service]")
        #expect(keyed != Self.read)
        #expect(locations(of: "KL206", in: keyed).isEmpty)
    }

    @Test func aReadClassFromAHelperOfTheFileIsFollowed() {
        let source = """
            import Security
            struct Store {
                var internet = false
                func itemClass() -> CFString {
                    if internet { return kSecClassInternetPassword }
                    return kSecClassGenericPassword
                }
                func token() -> CFTypeRef? {
                    var result: CFTypeRef?
                    SecItemCopyMatching([kSecClass: itemClass(), kSecAttrAccount: "me", kSecReturnData: true]
                        as CFDictionary, &result)
                    return result
                }
            }
            """
        #expect(locations(of: "KL206", in: source) == ["10:9"])
        #expect(messages("KL206", in: source).first?.contains("line 6 in `itemClass`") == true)
    }

    @Test func aListingOnSomeLivePathLeavesAReadSilent() {
        let source = """
            import Security
            func tokens(service: String, all: Bool) -> CFTypeRef? {
                var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                            kSecAttrService as String: service, kSecReturnData as String: true]
                var limit = kSecMatchLimitAll
                if !all {
                    limit = kSecMatchLimitOne
                }
                query[kSecMatchLimit as String] = limit
                var result: CFTypeRef?
                SecItemCopyMatching(query as CFDictionary, &result)
                return result
            }
            """
        #expect(locations(of: "KL206", in: source).isEmpty)
        // Only a live arm lists: the limit of one in the dead arm does not count, nor does All in a dead arm.
        let deadOne = source.replacingOccurrences(
            of: "var limit = kSecMatchLimitAll\n    if !all {",
            with:
                "var limit = true ? kSecMatchLimitAll : kSecMatchLimitOne\n    if false {")
        #expect(deadOne != source)
        #expect(locations(of: "KL206", in: deadOne).isEmpty)
        let deadAll = source.replacingOccurrences(
            of: "var limit = kSecMatchLimitAll\n    if !all {",
            with:
                "var limit = false ? kSecMatchLimitAll : kSecMatchLimitOne\n    if all {")
        #expect(locations(of: "KL206", in: deadAll) == ["11:5"])
    }
}
