// The `security` command: everything but the process set-up and exit lives in the SecurityCLI library.
import Foundation
import SecurityCLI
import SystemCalls

// Passwords typed at its prompts, and the class keys of an embedded keychain, must not end up in a core file.
try? SystemCalls.forbidCoreFiles()
exit(SecurityCommandLine.run())
