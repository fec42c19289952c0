import Foundation

/// A /proc file's text, read to its end: its size reads as 0, and Foundation's `String(contentsOfFile:)` then
/// stops after the first 4 KiB (`/proc/cpuinfo` of a machine with many cores, `/proc/mounts`).
enum ProcText {
    static func read(_ path: String) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
        defer { try? handle.close() }
        return String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
    }
}
