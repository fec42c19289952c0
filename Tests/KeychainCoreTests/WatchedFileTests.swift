import Foundation
import Testing

@testable import KeychainCore

/// ``WatchedFile`` must see every new version of a file another process writes, as a `stat` of the path does.
@Suite struct WatchedFileTests {
    private func scratchFile() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("watched-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("state")
    }

    @Test func aMissingFileHasNoIdentityUntilItIsWritten() throws {
        let file = try scratchFile()
        let watch = WatchedFile(path: file.path)
        #expect(watch.identity() == nil)
        try SecretFile.replace(file, bytes: [1])
        #expect(watch.identity() == SecretFile.identity(file))
        #expect(watch.identity() != nil)
    }

    @Test func aReplacementIsSeenAndThenFollowed() throws {
        let file = try scratchFile()
        try SecretFile.replace(file, bytes: [1])
        let watch = WatchedFile(path: file.path)
        let first = watch.identity()
        #expect(watch.identity() == first)
        try SecretFile.replace(file, bytes: [2])
        let second = watch.identity()
        #expect(second != first)
        #expect(second == SecretFile.identity(file))
        // The new file is watched now: it stays the same until it is replaced in its turn.
        #expect(watch.identity() == second)
        try SecretFile.replace(file, bytes: [3, 3])
        #expect(watch.identity() != second)
    }

    @Test func aChangeInPlaceAndARemovalAreSeen() throws {
        let file = try scratchFile()
        try SecretFile.replace(file, bytes: [1])
        let watch = WatchedFile(path: file.path)
        let before = watch.identity()
        let handle = try FileHandle(forWritingTo: file)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([9, 9]))
        try handle.close()
        #expect(watch.identity() != before)
        #expect(watch.identity() == SecretFile.identity(file))
        try FileManager.default.removeItem(at: file)
        #expect(watch.identity() == nil)
    }
}
