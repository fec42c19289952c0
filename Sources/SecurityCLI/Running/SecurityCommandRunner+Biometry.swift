import KeychainCore

extension SecurityCommandRunner {
    /// `biometry ACTION`: changes the simulated sensor, queues a reaction, or prints its state.
    func biometry(_ command: BiometryCommand, keychain: Keychain) throws(CommandFailure) {
        let sensor = keychain.authenticators.biometry
        let operation = "biometry \(command.rawValue)"
        if command != .status, keychain.authenticators.usesFingerprintReader {
            errors.writeLine(
                "security: note: this keychain uses the fingerprint reader (fprintd); the simulated sensor this "
                    + "changes is used only with KEYCHAIN_AUTHENTICATION=simulated")
        }
        switch command {
        case .enroll: try perform(operation) { try sensor.enroll() }
        case .unenroll: try perform(operation) { try sensor.unenroll() }
        case .changeEnrollment: try perform(operation) { try sensor.changeEnrollment() }
        case .match, .noMatch, .cancel, .fallback:
            guard let outcome = command.outcome else { return }
            try perform(operation) { try sensor.script(outcome) }
        case .status:
            let authenticators = keychain.authenticators
            let status = try perform(operation) { try authenticators.sensorStatus() }
            if authenticators.usesFingerprintReader {
                let state = !status.isAvailable ? "no reader found" : status.isEnrolled ? "enrolled" : "not enrolled"
                output.writeLine("biometry: fingerprint reader (fprintd), \(state)")
            } else {
                output.writeLine("biometry: simulated Touch ID, \(status.isEnrolled ? "enrolled" : "not enrolled")")
                output.writeLine("failed matches: \(status.failures)\(status.isLockedOut ? " (locked out)" : "")")
                output.writeLine("queued: \(status.script.map(\.rawValue).joined(separator: " "))")
            }
            SystemAuthenticationBackEnds.detect(keychain.configuration).summary.forEach { output.writeLine($0) }
        }
    }
}
