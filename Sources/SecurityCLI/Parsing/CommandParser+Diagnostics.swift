import KeychainMessages

/// The operands of `error` and `doctor`, which take no options: `error -25300` is a code, not an option.
extension CommandParser {
    /// `error CODE...`: decimal (`-25300`) or hexadecimal (`0xFFFF9D2C`) status codes.
    static func statusCodes(_ arguments: [String]) throws(UsageError) -> [Int32] {
        guard !arguments.isEmpty else { throw UsageError(.errorCodeMissing, verb: .error) }
        var codes: [Int32] = []
        for argument in arguments {
            if let decimal = Int32(argument) {
                codes.append(decimal)
            } else if argument.lowercased().hasPrefix("0x"), let bits = UInt32(argument.dropFirst(2), radix: 16) {
                codes.append(Int32(bitPattern: bits))
            } else {
                throw UsageError(.notAnErrorCode(argument), verb: .error)
            }
        }
        return codes
    }

    /// `doctor [FUNCTION] [FILE]`: the function (add, copy, update, delete, or Apple's SecItem… name) and the
    /// JSON file (`-` or none: standard input).
    static func doctorCommand(_ arguments: [String]) throws(UsageError) -> DoctorCommand {
        var command = DoctorCommand()
        var operands = arguments[...]
        if let first = operands.first, let function = doctorFunction(first) {
            command.function = function
            operands = operands.dropFirst()
        }
        if let file = operands.first {
            command.file = file == "-" ? nil : file
            operands = operands.dropFirst()
        }
        guard operands.isEmpty else { throw UsageError(.doctorOperands, verb: .doctor) }
        return command
    }

    /// A function named as `add` or as `SecItemAdd`.
    static func doctorFunction(_ name: String) -> DoctorCommand.Function? {
        DoctorCommand.Function(rawValue: name.lowercased())
            ?? DoctorCommand.Function.allCases.first { $0.secItemName == name }
    }
}
