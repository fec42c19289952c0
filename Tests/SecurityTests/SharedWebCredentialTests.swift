import Foundation
import Security
import Testing

/// Shared web credentials (SecSharedCredential.h): the password generator works as Apple documents it; storing
/// and requesting need Safari's keychain and the associated-domains check, which this platform has not, so they
/// answer errSecUnimplemented through their completion handlers.
@Suite struct SharedWebCredentialTests {
    private static let lower = Set("abcdefghkmnopqrstuvwxy")
    private static let upper = Set("ABCDEFGHJKLMNPQRSTUVWXYZ")
    private static let digits = Set("3456789")

    @Test func generatedPasswordsAreFourGroupsOfThreeFromEverySet() throws {
        var seen = Set<String>()
        for _ in 0..<500 {
            let password = try #require(SecCreateSharedWebCredentialPassword() as String?)
            let groups = password.split(separator: "-", omittingEmptySubsequences: false)
            #expect(groups.count == 4 && groups.allSatisfy { $0.count == 3 }, "\(password.count) characters")
            let characters = password.filter { $0 != "-" }
            #expect(
                characters.allSatisfy { Self.lower.contains($0) || Self.upper.contains($0) || Self.digits.contains($0) }
            )
            #expect(characters.contains { Self.lower.contains($0) })
            #expect(characters.contains { Self.upper.contains($0) })
            #expect(characters.contains { Self.digits.contains($0) })
            seen.insert(password)
        }
        #expect(seen.count == 500, "passwords repeat")
    }

    @available(*, deprecated, message: "exercises SecRequestSharedWebCredential")
    @Test func storingAndRequestingAreUnimplemented() async throws {
        #expect(kSecSharedPassword as String == "spwd")
        let added: Int? = await withCheckedContinuation { continuation in
            SecAddSharedWebCredential("example.com" as CFString, "user" as CFString, "Abc-def-345-ghk" as CFString) {
                continuation.resume(returning: ($0 as Error?).map { ($0 as NSError).code })
            }
        }
        #expect(added == Int(errSecUnimplemented))
        let requested: (Int, Int?) = await withCheckedContinuation { continuation in
            SecRequestSharedWebCredential("example.com" as CFString, nil) { credentials, error in
                continuation.resume(
                    returning: (credentials?.count ?? -1, (error as Error?).map { ($0 as NSError).code }))
            }
        }
        #expect(requested.0 == 0 && requested.1 == Int(errSecUnimplemented))
    }
}
