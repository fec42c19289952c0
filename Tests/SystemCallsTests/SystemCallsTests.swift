import Foundation
import SystemCalls
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct SystemCallsTests {
    private func scratchDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "system-calls-\(UUID().uuidString)"
        try SystemCalls.mkdir(path, mode: 0o700)
        return path
    }

    @Test func failedOpenNamesTheCallTheErrnoAndThePath() throws {
        let missing = try scratchDirectory() + "/missing"
        #expect(throws: SystemCallError(call: "open", code: ENOENT, path: missing)) {
            try SystemCalls.open(missing, O_RDONLY)
        }
    }

    @Test func failedRenameReportsRenamesOwnErrno() throws {
        let directory = try scratchDirectory()
        let file = directory + "/file"
        let descriptor = try SystemCalls.open(file, O_WRONLY | O_CREAT, mode: 0o600)
        SystemCalls.close(descriptor)
        // A non-empty directory cannot be replaced by a file: rename(2) answers EISDIR, as root too.
        let target = directory + "/target"
        try SystemCalls.mkdir(target, mode: 0o700)
        try SystemCalls.mkdir(target + "/inside", mode: 0o700)
        #expect(throws: SystemCallError(call: "rename", code: EISDIR, path: target)) {
            try SystemCalls.rename(file, to: target)
        }
    }

    @Test func writesReadsAndStatsAFile() throws {
        let file = try scratchDirectory() + "/data"
        let descriptor = try SystemCalls.open(file, O_RDWR | O_CREAT | O_EXCL, mode: 0o600)
        defer { SystemCalls.close(descriptor) }
        let bytes = [UInt8](repeating: 7, count: 10_000)
        try bytes.withUnsafeBytes { try SystemCalls.writeAll(descriptor, $0) }
        try SystemCalls.fsync(descriptor)
        let status = try SystemCalls.fstat(descriptor)
        #expect(status.size == 10_000)
        #expect(status.mode & 0o777 == 0o600)
        #expect(try SystemCalls.stat(file).inode == status.inode)
        let reader = try SystemCalls.open(file, O_RDONLY)
        defer { SystemCalls.close(reader) }
        #expect(try SystemCalls.readAll(reader) == bytes)
        #expect(throws: SystemCallError(call: "open", code: EEXIST, path: file)) {
            try SystemCalls.open(file, O_RDWR | O_CREAT | O_EXCL, mode: 0o600)
        }
    }

    @Test func unlinkOfAMissingFileIsENOENT() throws {
        let missing = try scratchDirectory() + "/gone"
        #expect(throws: SystemCallError(call: "unlink", code: ENOENT, path: missing)) {
            try SystemCalls.unlink(missing)
        }
    }

    @Test func runsAChildAndCapturesItsOutputAndStatus() throws {
        let run = try SystemCalls.run(["/bin/sh", "-c", "printf out; printf err >&2; exit 3"])
        #expect(run.status == 3)
        #expect(String(decoding: run.output, as: UTF8.self) == "out")
        #expect(String(decoding: run.errors, as: UTF8.self) == "err")
    }

    @Test func spawnOfAMissingProgramIsENOENT() throws {
        #expect(throws: SystemCallError(call: "posix_spawn", code: ENOENT, path: "/nonexistent/program")) {
            try SystemCalls.run(["/nonexistent/program"])
        }
        #expect(throws: SystemCallError(call: "posix_spawn", code: EINVAL)) { try SystemCalls.run([]) }
    }

    @Test func readsTheEnvironment() {
        #expect(SystemCalls.environmentValue("PATH") != nil)
        #expect(SystemCalls.environmentValue("KEYCHAIN_SURELY_UNSET_\(UUID().uuidString.prefix(8))") == nil)
    }

    @Test func errorTextNamesCallAndPath() {
        let error = SystemCallError(call: "rename", code: ENOTDIR, path: "/a/b")
        #expect(error.description == "rename /a/b: Not a directory")
    }
}
