import TerminalIO
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct PosixIOTests {
    /// The wipe writes only storage the caller owns: a copy that shared the array's storage keeps its bytes
    /// (the array is separated from it first), where a write through a read-only pointer would have zeroed both.
    @Test func wipeEmptiesTheCallersArrayAndNoOtherCopy() {
        var secret: [UInt8] = Array("hunter2".utf8)
        let copy = secret
        PosixIO.wipe(&secret)
        #expect(secret.isEmpty)
        #expect(copy == Array("hunter2".utf8))
    }

    @Test func readsOneLineFromAPipeWithoutItsLineEnd() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { PosixIO.closeDescriptor(ends[0]) }
        Array("secret\r\nnext\n".utf8).withUnsafeBytes { #expect(PosixIO.writeAll(ends[1], $0)) }
        PosixIO.closeDescriptor(ends[1])
        #expect(try LineInput.readLine(from: ends[0]) == Array("secret".utf8))
        #expect(try LineInput.readLine(from: ends[0]) == Array("next".utf8))
        #expect(try LineInput.readLine(from: ends[0]) == nil)
    }

    @Test func aClosedDescriptorIsAnIOErrorWithItsErrno() {
        #expect(throws: TerminalReadError.io(EBADF)) { try LineInput.readLine(from: -1) }
    }
}
