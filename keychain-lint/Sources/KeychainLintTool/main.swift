import Foundation
import KeychainLint

// The command is a thin shell over the library, where parsing and running are tested.
let status = CommandRunner().run(arguments: Array(CommandLine.arguments.dropFirst()))
exit(status.rawValue)
