/// Reading one line of a password from a descriptor.
public enum LineInput {
    /// Reads one line one byte at a time, so nothing after it is consumed; every intermediate buffer is wiped.
    /// - Returns: nil at end of file before any byte.
    public static func readLine(from descriptor: Int32) throws(TerminalReadError) -> [UInt8]? {
        var line: [UInt8] = []
        line.reserveCapacity(256)
        var byte: UInt8 = 0
        defer { byte = 0 }
        var sawAnything = false
        while true {
            let count: Int
            do {
                count = try PosixIO.read(descriptor, into: &byte)
            } catch {
                PosixIO.wipe(&line)
                throw error
            }
            if count == 0 { break }
            sawAnything = true
            if byte == UInt8(ascii: "\n") { break }
            if line.count == line.capacity {
                // Grow by hand so the old storage can be wiped instead of freed with the secret in it.
                var larger: [UInt8] = []
                larger.reserveCapacity(line.capacity * 2)
                larger.append(contentsOf: line)
                PosixIO.wipe(&line)
                line = larger
            }
            line.append(byte)
        }
        guard sawAnything else { return nil }
        if line.last == UInt8(ascii: "\r") {
            line[line.count - 1] = 0
            line.removeLast()
        }
        return line
    }
}
