import KeychainCore
import KeychainRequests
import KeychainTestSupport
import Testing

@Suite struct AuthenticationContextRegistryTests {
    @Test func idsAre128RandomBitsAndNeverPrinted() throws {
        let registry = AuthenticationContextRegistry()
        let first = try registry.create()
        let second = try registry.create()
        #expect(first.bytes.count == 16)
        #expect(first != second)
        #expect(!"\(first)".contains(first.bytes.map { String($0, radix: 16) }.joined()))
        #expect("\(first)" == "AuthenticationContextID(redacted)")
        #expect(AuthenticationContextID(bytes: [1, 2, 3]) == nil)
        #expect(registry.count == 2)
    }

    @Test func unknownIdIsRefusedWithParam() throws {
        let registry = AuthenticationContextRegistry()
        _ = try registry.create()
        let forged = try #require(AuthenticationContextID(bytes: Array(repeating: 7, count: 16)))
        #expect(status { _ = try registry.resolve(forged) } == SecurityStatus.param)
    }

    @Test func forgottenIdIsRefusedAndItsContextInvalidated() throws {
        let registry = AuthenticationContextRegistry()
        let id = try registry.create()
        let context = try registry.resolve(id)
        context.setApplicationPassword(Array("pw".utf8))
        registry.forget(id)
        #expect(status { _ = try registry.resolve(id) } == SecurityStatus.param)
        #expect(context.isInvalidated)
        #expect(!context.hasApplicationPassword)
        #expect(registry.count == 0)
    }

    @Test func serviceRefusesAnUnknownContextOnItemRequestsWithParam() throws {
        try withService { service in
            let forged = try #require(AuthenticationContextID(bytes: Array(repeating: 9, count: 16)))
            let stranger = service.caller(context: forged)
            #expect(
                status { _ = try service.perform(.search(query("a", returns: .data)), as: stranger) }
                    == SecurityStatus.param)
            #expect(status { _ = try service.perform(.add(password("a")), as: stranger) } == SecurityStatus.param)
            // Nothing was added by the refused request.
            #expect(
                status { _ = try service.perform(.search(query("a")), as: service.caller()) }
                    == SecurityStatus.itemNotFound)
        }
    }

    @Test func serviceAnswersAnEvaluationOnAForgottenContextAsAnInvalidatedOne() throws {
        try withService { service in
            guard
                case .authenticationContext(let id) = try service.perform(
                    .createAuthenticationContext, as: service.caller())
            else {
                Issue.record("no id")
                return
            }
            let owner = service.caller(context: id)
            _ = try service.perform(.forgetAuthenticationContext, as: owner)
            #expect(throws: AuthenticationFailure.invalidContext) {
                try service.perform(.canEvaluatePolicy(.devicePasscode), as: owner)
            }
            #expect(status { _ = try service.perform(.authenticationContextState, as: owner) } == SecurityStatus.param)
        }
    }
}
