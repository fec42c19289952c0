import KeychainCore

extension SecurityCommandRunner {
    /// `biometry ACTION`: changes the simulated sensor, queues a reaction, or prints its state.
    func biometry(_ command: BiometryCommand, keychain: Keychain) throws(CommandFailure) {
        let sensor = keychain.authenticators.biometry
        let operation = "biometry \(command.rawValue)"
        switch command {
        case .enroll: try perform(operation) { try sensor.enroll() }
        case .unenroll: try perform(operation) { try sensor.unenroll() }
        case .changeEnrollment: try perform(operation) { try sensor.changeEnrollment() }
        case .match, .noMatch, .cancel, .fallback:
            guard let outcome = command.outcome else { return }
            try perform(operation) { try sensor.script(outcome) }
        case .status:
            let status = try perform(operation) { try sensor.status() }
            output.writeLine("biometry: simulated Touch ID, \(status.isEnrolled ? "enrolled" : "not enrolled")")
            output.writeLine("failed matches: \(status.failures)\(status.isLockedOut ? " (locked out)" : "")")
            output.writeLine("queued: \(status.script.map(\.rawValue).joined(separator: " "))")
            let backEnds = SystemAuthenticationBackEnds.detect(owner: keychain.configuration.ownerAuthentication)
            backEnds.summary.forEach { output.writeLine($0) }
        }
    }
}
