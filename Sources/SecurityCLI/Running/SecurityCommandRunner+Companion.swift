import KeychainCore
import KeychainRequests

extension SecurityCommandRunner {
    /// `companion ACTION`: pairs or unpairs the simulated companion, queues a reaction, or prints its state.
    func companion(_ command: CompanionCommand, keychain: KeychainClient) throws(CommandFailure) {
        let operation = "companion \(command.rawValue)"
        switch command {
        case .pair: try perform(operation) { try keychain.simulatedCompanion(.pair) }
        case .unpair: try perform(operation) { try keychain.simulatedCompanion(.unpair) }
        case .approve, .deny, .cancel:
            guard let outcome = command.outcome else { return }
            try perform(operation) { try keychain.simulatedCompanion(.script(outcome)) }
        case .status:
            let status = try perform(operation) { try keychain.simulatedCompanion(.status) }
            output.writeLine("companion: simulated watch, \(status.isPaired ? "paired" : "not paired")")
            output.writeLine("queued: \(status.script.map(\.rawValue).joined(separator: " "))")
        }
    }
}
