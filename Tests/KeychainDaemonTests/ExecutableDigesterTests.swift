import Foundation
import Testing

@testable import KeychainDaemon

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon reads an executable's bytes for its SHA-256: never more than a bound, since a file padded with a
/// sparse tail costs its maker nothing and the daemon seconds of processor time per connection.
@Suite(.serialized) struct ExecutableDigesterTests {
    /// A sparse file of `size` bytes in a fresh directory (removed by the caller through the returned directory).
    private func sparseFile(size: Int64) throws -> (directory: String, path: String) {
        let directory = "/tmp/kd-digest-" + UUID().uuidString.prefix(8).lowercased()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        chmod(directory, 0o755)
        let path = directory + "/padded"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o755)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        try #require(ftruncate(descriptor, off_t(size)) == 0)
        return (directory, path)
    }

    @Test func aFileOverTheBoundIsNotReadAndKeepsItsIdentity() throws {
        let file = try sparseFile(size: ExecutableDigester.largestExecutable + 1)
        defer { try? FileManager.default.removeItem(atPath: file.directory) }
        let padded = try #require(ExecutableDigester().digest(ofExecutableAt: file.path))
        #expect(padded.sha256 == nil)
        var status = stat()
        try #require(stat(file.path, &status) == 0)
        #expect(padded.file == FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino)))
        let small = file.directory + "/small"
        FileManager.default.createFile(atPath: small, contents: Data("abc".utf8))
        #expect(
            ExecutableDigester().digest(ofExecutableAt: small)?.sha256?.map { String(format: "%02x", $0) }.joined()
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    /// A program padded past the bound (a sparse tail) is not hashed, and still has its private group: its path
    /// and file identity are enough for that.
    @Test func aProgramOverTheBoundHasItsPrivateGroup() throws {
        let apps = try AppIsolationTests.Apps()
        let program = apps.directory + "/padded-app"
        try AppIsolationTests.Apps.install(try Data(contentsOf: URL(fileURLWithPath: apps.appA)), at: program)
        try #require(truncate(program, off_t(ExecutableDigester.largestExecutable + 1)) == 0)
        let added = try apps.run(program, "add", "large", "x")
        #expect(added["status"] == "0", "\(added)")
        #expect(try apps.run(program, "get", "large")["data"] == "x")
        #expect(try apps.run(apps.appA, "get", "large")["status"] == "-25300")
    }

    /// Without its bytes read, a file still has its path and identity: what a process running it would get, a
    /// private group here (no hash rule can name it).
    @Test func explainingAFileOverTheBoundSaysSoWithoutReadingIt() throws {
        let file = try sparseFile(size: 4 * ExecutableDigester.largestExecutable)
        defer { try? FileManager.default.removeItem(atPath: file.directory) }
        let apps = try AppIsolationTests.Apps()
        let shown = try apps.run(apps.appA, "explain", file.path)
        #expect(shown["sha256"]?.contains("more than keychaind reads") == true, "\(shown)")
        #expect(shown["decision"] == "allowed" && shown["basis"] == "private group", "\(shown)")
    }
}
