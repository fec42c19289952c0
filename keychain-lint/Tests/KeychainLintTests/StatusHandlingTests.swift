import Testing

@testable import KeychainLint

/// KL208 and KL209, the release checklist's error handling: every SecItem call's OSStatus is checked, and
/// errSecDuplicateItem is handled (updated, or the failure thrown or returned), not swallowed or only logged.
@Suite struct StatusHandlingTests {
    @Test func discardedStatus() {
        let source = """
            import Security
            func save(_ q: [String: Any], _ attributes: [String: Any]) {
                SecItemAdd(q as CFDictionary, nil)
                _ = SecItemUpdate(q as CFDictionary, attributes as CFDictionary)
                SecItemDelete(q as CFDictionary)
            }
            """
        #expect(locations(of: "KL208", in: source) == ["3:5", "4:9", "5:5"])
    }

    @Test func discardedStatusInObjectiveC() {
        let source = """
            - (void)save:(NSDictionary *)q {
                SecItemAdd((__bridge CFDictionaryRef)q, NULL);
                (void)SecItemDelete((__bridge CFDictionaryRef)q);
                OSStatus status = SecItemAdd((__bridge CFDictionaryRef)q, NULL);
                if (status != errSecSuccess) { NSLog(@"failed %d", (int)status); }
            }
            """
        #expect(locations(of: "KL208", in: source, path: "Store.m") == ["2:5", "3:11"])
    }

    @Test func checkedStatusIsSilent() {
        let source = """
            import Security
            func save(_ q: [String: Any]) throws -> Bool {
                let status = SecItemAdd(q as CFDictionary, nil)
                guard SecItemDelete(q as CFDictionary) == errSecSuccess else { return false }
                if SecItemUpdate(q as CFDictionary, q as CFDictionary) != errSecSuccess { return false }
                return status == errSecSuccess
            }
            func check(_ q: [String: Any]) -> OSStatus { SecItemAdd(q as CFDictionary, nil) }
            """
        #expect(locations(of: "KL208", in: source).isEmpty)
    }

    /// A body of one statement is not a return unless something takes its value: an arm, a case, a loop body or a
    /// Void function's body discards the status.
    @Test func discardedStatusInSingleStatementBodies() {
        let source = """
            import Security
            enum Mode { case clear, keep }
            func reset(_ q: [String: Any], _ reset: Bool, _ mode: Mode, _ qs: [CFDictionary]) {
                if reset { SecItemDelete(q as CFDictionary) }
                switch mode {
                case .clear: SecItemDelete(q as CFDictionary)
                case .keep: break
                }
                for q in qs { SecItemDelete(q) }
            }
            func clear(_ q: [String: Any]) { SecItemDelete(q as CFDictionary) }
            func clearAll(_ q: [String: Any]) -> Void { SecItemDelete(q as CFDictionary) }
            func retry(_ q: [String: Any], _ queue: DispatchQueue, _ reset: Bool) -> Bool {
                do { try check() } catch { SecItemDelete(q as CFDictionary) }
                queue.async { if reset { SecItemDelete(q as CFDictionary) } }
                return true
            }
            func check() throws {}
            var item: [String: Any] = [:]
            var status: OSStatus {
                get { errSecSuccess }
                set { SecItemDelete(item as CFDictionary) }
            }
            """
        #expect(
            locations(of: "KL208", in: source) == [
                "4:16", "6:18", "9:19", "11:34", "12:45", "14:32", "15:30", "22:11",
            ])
    }

    /// Where the one expression is the value a closure or a value-returning function gives back, the status is kept.
    @Test func returnedSingleExpressionIsSilent() {
        let source = """
            import Foundation
            import Security
            struct Store {
                let queue = DispatchQueue(label: "store")
                var q: [String: Any]
                func add() -> OSStatus { SecItemAdd(q as CFDictionary, nil) }
                func addOnQueue() -> OSStatus { queue.sync { SecItemAdd(q as CFDictionary, nil) } }
                var deleted: OSStatus { SecItemDelete(q as CFDictionary) }
                var updated: OSStatus { get { SecItemUpdate(q as CFDictionary, q as CFDictionary) } }
                subscript(key: String) -> OSStatus { SecItemDelete(q as CFDictionary) }
                func pick(_ fresh: Bool) -> OSStatus {
                    let status = if fresh { SecItemAdd(q as CFDictionary, nil) } else { SecItemDelete(q as CFDictionary) }
                    return status
                }
                // An `if` or `switch` that is a body's one statement is an expression there (SE-0380).
                func choose(_ fresh: Bool) -> OSStatus {
                    if fresh { SecItemAdd(q as CFDictionary, nil) } else { SecItemDelete(q as CFDictionary) }
                }
            }
            """
        #expect(locations(of: "KL208", in: source).isEmpty)
    }

    @Test func duplicateItemSwallowed() {
        let source = """
            import Security
            func save(_ q: [String: Any]) {
                let status = SecItemAdd(q as CFDictionary, nil)
                if status == errSecDuplicateItem {
                    print("exists")
                    return
                }
                switch status {
                case errSecDuplicateItem: break
                default: break
                }
            }
            """
        #expect(locations(of: "KL209", in: source) == ["4:18", "9:10"])
    }

    @Test func duplicateItemHandledIsSilent() {
        let source = """
            import Security
            enum KeychainError: Error { case duplicate }
            func save(_ q: [String: Any], _ attributes: [String: Any], completion: (Bool) -> Void) throws -> OSStatus {
                var status = SecItemAdd(q as CFDictionary, nil)
                if status == errSecDuplicateItem {
                    status = SecItemUpdate(q as CFDictionary, attributes as CFDictionary)
                }
                if status == errSecDuplicateItem { throw KeychainError.duplicate }
                if status == errSecDuplicateItem { completion(false) }
                if status == errSecDuplicateItem { try updateItem(q) }
                if status == errSecDuplicateItem { return status }
                return status
            }
            func updateItem(_ q: [String: Any]) throws {}
            """
        #expect(locations(of: "KL209", in: source).isEmpty)
        #expect(locations(of: "KL208", in: source).isEmpty)
    }

    /// `let _ =` is a discard, and so is the one call of a closure whose result nobody uses: `forEach`, a
    /// dispatch queue's `async`/`asyncAfter`, an unstored `Task`. A closure whose result is used (`map`, a stored
    /// `Task`'s value) keeps it.
    @Test func discardedStatusInVoidClosures() {
        let source = """
            import Foundation
            import Security
            func clear(_ queries: [[String: Any]], _ q: [String: Any]) async -> [OSStatus] {
                let _ = SecItemAdd(q as CFDictionary, nil)
                queries.forEach { SecItemDelete($0 as CFDictionary) }
                DispatchQueue.global().async { SecItemDelete(q as CFDictionary) }
                DispatchQueue.main.asyncAfter(deadline: .now() + 1) { SecItemDelete(q as CFDictionary) }
                Task { SecItemAdd(q as CFDictionary, nil) }
                let added = Task { SecItemAdd(q as CFDictionary, nil) }
                _ = await added.value
                return queries.map { SecItemDelete($0 as CFDictionary) }
            }
            """
        #expect(locations(of: "KL208", in: source) == ["4:13", "5:23", "6:36", "7:59", "8:12"])
    }

    /// Converting a status into an error (assigning `self` in an initializer, setting an error, a `switch`
    /// expression's value) is not swallowing the duplicate: the caller gets the error.
    @Test func statusToErrorMappingIsSilent() {
        let source = """
            import Security
            enum KeychainError: Error {
                case duplicate, notFound, other(OSStatus)
                init(status: OSStatus) {
                    switch status {
                    case errSecDuplicateItem: self = .duplicate
                    case errSecItemNotFound: self = .notFound
                    default: self = .other(status)
                    }
                }
                static func from(_ status: OSStatus) -> KeychainError {
                    switch status {
                    case errSecDuplicateItem: .duplicate
                    default: .other(status)
                    }
                }
            }
            final class Store {
                var lastError: KeychainError?
                func record(_ status: OSStatus) {
                    if status == errSecDuplicateItem { lastError = .duplicate }
                    if status == errSecDuplicateItem { print("duplicate") }
                }
            }
            """
        #expect(locations(of: "KL209", in: source) == ["22:22"])
    }
}
