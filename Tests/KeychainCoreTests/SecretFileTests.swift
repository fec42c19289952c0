import Foundation
import Testing

@testable import KeychainCore

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct SecretFileTests {
    private func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("secret-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The failing call is rename, and its errno is reported, not that of the cleanup's unlink (which succeeds
    /// and would leave errno unchanged or set it to something else).
    @Test func replaceReportsRenamesErrnoAndRemovesItsTemporaryFile() throws {
        let home = try scratch()
        let target = home.appendingPathComponent("state")
        // A non-empty directory cannot be replaced by a file: rename(2) answers EISDIR, as root too.
        try FileManager.default.createDirectory(
            at: target.appendingPathComponent("inside"), withIntermediateDirectories: true)
        let expected = "rename state: \(String(cString: strerror(EISDIR)))"
        let error = #expect(throws: KeychainError.self) { try SecretFile.replace(target, bytes: [1, 2, 3]) }
        #expect(error?.status == SecurityStatus.io)
        #expect(error?.reason == expected)
        let left = try FileManager.default.contentsOfDirectory(atPath: home.path)
        #expect(left == ["state"])
    }

    @Test func replaceThenReadRoundTripsWithOwnerOnlyMode() throws {
        let file = try scratch().appendingPathComponent("document")
        #expect(try SecretFile.read(file) == nil)
        try SecretFile.replace(file, bytes: [9, 8, 7])
        #expect(try SecretFile.read(file) == [9, 8, 7])
        let before = SecretFile.identity(file)
        try SecretFile.replace(file, bytes: [1])
        #expect(SecretFile.identity(file) != before)
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func createExclusivelyKeepsTheFirstVersion() throws {
        let file = try scratch().appendingPathComponent("key")
        #expect(try SecretFile.createExclusively(file, bytes: [1]))
        #expect(try SecretFile.createExclusively(file, bytes: [2]) == false)
        #expect(try SecretFile.read(file) == [1])
    }

    @Test func readOfADirectoryNamesTheRead() throws {
        let home = try scratch()
        let expected = "read \(home.lastPathComponent): \(String(cString: strerror(EISDIR)))"
        let error = #expect(throws: KeychainError.self) { try SecretFile.read(home) }
        #expect(error?.reason == expected)
    }
}
