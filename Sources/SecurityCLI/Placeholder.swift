// SecurityCLI
