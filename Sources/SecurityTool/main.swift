// The `security` command: everything but the process exit lives in the SecurityCLI library.
import Foundation
import SecurityCLI

exit(SecurityCommandLine.run())
