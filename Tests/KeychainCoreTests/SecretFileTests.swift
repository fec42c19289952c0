import Foundation
import Synchronization
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

/// Backup files come from anywhere: only a regular file of a bounded size is read, and nothing waits on a pipe.
/// A backup being written has no name until it is complete, so a process killed meanwhile leaves nothing.
@Suite(.serialized) struct BackupFileTests {
    private func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("backup-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func aPipeIsRefusedEvenWithAWriter() throws {
        let fifo = try scratch().appendingPathComponent("pipe")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        // A writer that gives a few bytes and closes: what the old read would have taken as a backup.
        let writer = Thread {
            // The reader may be gone by the time the bytes go: the write must fail with EPIPE, not end the test
            // process with SIGPIPE (blocked on this thread, and taken back before it ends).
            var pipeSignal = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
            let descriptor = open(fifo.path, O_WRONLY)
            if descriptor >= 0 {
                _ = write(descriptor, "KCBACKUP", 8)
                close(descriptor)
            }
            var none = timespec()
            _ = sigtimedwait(&pipeSignal, nil, &none)
        }
        writer.start()
        let error = #expect(throws: KeychainError.self) { try Keychain.readBackupFile(fifo) }
        #expect(error?.status == SecurityStatus.param)
        // Let the writer go if it is still waiting for a reader.
        let unblock = open(fifo.path, O_RDONLY | O_NONBLOCK)
        if unblock >= 0 { close(unblock) }
    }

    @Test func aFileLargerThanAnyBackupIsRefusedUnread() throws {
        let file = try scratch().appendingPathComponent("huge")
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        #expect(truncate(file.path, off_t(300 << 20)) == 0)  // sparse: nothing is written
        let error = #expect(throws: KeychainError.self) { try Keychain.readBackupFile(file) }
        #expect(error?.status == SecurityStatus.param)
    }

    @Test func aDeviceOrAPipeWithoutWriterIsRefusedAtOnce() throws {
        let fifo = try scratch().appendingPathComponent("pipe")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        for url in [URL(fileURLWithPath: "/dev/zero"), fifo, try scratch()] {
            let error = #expect(throws: KeychainError.self) { try Keychain.readBackupFile(url) }
            #expect(error?.status == SecurityStatus.param)
            #expect(error?.reason?.contains("not a regular file") == true)
        }
    }

    @Test func aSymbolicLinkToARegularFileIsFollowed() throws {
        let directory = try scratch()
        let file = directory.appendingPathComponent("backup")
        try Data([1, 2, 3]).write(to: file)
        let link = directory.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
        #expect(try Keychain.readBackupFile(link) == [1, 2, 3])
    }

    @Test func aNewFileHasNoNameUntilItIsComplete() throws {
        let directory = try scratch()
        let target = directory.appendingPathComponent("b.kcb")
        let seen = Mutex<[String]>([])
        SecretFile.beforeLinking.withLock {
            $0 = { seen.withLock { $0 = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] } }
        }
        defer { SecretFile.beforeLinking.withLock { $0 = nil } }
        #expect(try SecretFile.createExclusively(target, bytes: [1, 2, 3]))
        #expect(seen.withLock { $0 } == [])
        #expect(try SecretFile.read(target) == [1, 2, 3])
        #expect(try !SecretFile.createExclusively(target, bytes: [4]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["b.kcb"])
        // A symbolic link at the name counts as a file there, even one to nothing: nothing is written through it.
        let link = directory.appendingPathComponent("link")
        let elsewhere = directory.appendingPathComponent("elsewhere")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: elsewhere)
        #expect(try !SecretFile.createExclusively(link, bytes: [5]))
        #expect(!FileManager.default.fileExists(atPath: elsewhere.path))
    }
}
