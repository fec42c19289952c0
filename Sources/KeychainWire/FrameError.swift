/// Why a byte stream is not a sequence of frames. Each closes the connection; the reason is logged, and names
/// sizes and header fields only, never payload bytes.
package enum FrameError: Error, Equatable, Sendable, CustomStringConvertible {
    case badMagic
    case unsupportedVersion(UInt8)
    case reservedFlags(UInt8)
    case tooLarge(length: UInt32, limit: Int)

    package var description: String {
        switch self {
        case .badMagic: "the message does not start with the protocol's magic"
        case .unsupportedVersion(let version): "protocol version \(version) is not supported (only \(Frame.version))"
        case .reservedFlags(let flags): "reserved flags 0x\(String(flags, radix: 16)) are set"
        case .tooLarge(let length, let limit): "a \(length)-byte payload is over the \(limit)-byte limit"
        }
    }
}
