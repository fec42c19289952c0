import KeychainCore
import KeychainMessages
import KeychainRequests

extension SecurityCommandRunner {
    /// `biometry ACTION`: changes the simulated sensor, queues a reaction, or prints its state.
    func biometry(_ command: BiometryCommand, keychain: KeychainClient) throws(CommandFailure) {
        let operation = "biometry \(command.rawValue)"
        let service = try perform(operation) { try keychain.describeService() }
        if command != .status, service.usesFingerprintReader {
            errors.writeLine("security: " + CommandMessage.simulatedSensorUnused.text(in: language))
        }
        switch command {
        case .enroll: try perform(operation) { try keychain.simulatedBiometry(.enroll) }
        case .unenroll: try perform(operation) { try keychain.simulatedBiometry(.unenroll) }
        case .changeEnrollment: try perform(operation) { try keychain.simulatedBiometry(.changeEnrollment) }
        case .match, .noMatch, .cancel, .fallback:
            guard let outcome = command.outcome else { return }
            try perform(operation) { try keychain.simulatedBiometry(.script(outcome)) }
        case .status:
            let status = try perform(operation) { try keychain.biometryStatus() }
            if service.usesFingerprintReader {
                let state = !status.isAvailable ? "no reader found" : status.isEnrolled ? "enrolled" : "not enrolled"
                output.writeLine("biometry: fingerprint reader (fprintd), \(state)")
            } else {
                output.writeLine("biometry: simulated Touch ID, \(status.isEnrolled ? "enrolled" : "not enrolled")")
                output.writeLine("failed matches: \(status.failures)\(status.isLockedOut ? " (locked out)" : "")")
                output.writeLine("queued: \(status.script.map(\.rawValue).joined(separator: " "))")
            }
            for backEnd in service.backEnds { output.writeLine(backEnd) }
        }
    }
}
