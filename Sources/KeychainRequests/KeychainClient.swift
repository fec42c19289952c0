import KeychainCore

/// A service bound to one caller, with the engine's typed calls: what the faces and the `security` command
/// hold instead of a `Keychain`. Each call is one request.
public struct KeychainClient: Sendable {
    public let service: any KeychainService
    public var caller: Caller

    public init(service: any KeychainService, caller: Caller) {
        self.service = service
        self.caller = caller
    }

    /// The service's default caller.
    public init(service: any KeychainService) {
        self.init(service: service, caller: service.caller())
    }

    /// The same client naming `context` (a query's `kSecUseAuthenticationContext`).
    public func using(_ context: AuthenticationContextID?) -> KeychainClient {
        KeychainClient(service: service, caller: caller.using(context))
    }

    @discardableResult
    public func add(_ item: NewItem) throws -> ItemResult? {
        guard case .added(let result) = try service.perform(.add(item), as: caller) else {
            throw unexpectedResponse(to: "add")
        }
        return result
    }

    public func search(_ query: ItemQuery) throws -> SearchReport {
        guard case .found(let report) = try service.perform(.search(query), as: caller) else {
            throw unexpectedResponse(to: "search")
        }
        return report
    }

    public func copyMatching(_ query: ItemQuery) throws -> [ItemResult] {
        try search(query).results
    }

    public func update(_ query: ItemQuery, with changes: ItemChanges) throws {
        try expectDone(.update(query, changes), "update")
    }

    @discardableResult
    public func delete(_ query: ItemQuery) throws -> Int {
        guard case .deleted(let count) = try service.perform(.delete(query), as: caller) else {
            throw unexpectedResponse(to: "delete")
        }
        return count
    }

    public func previewAdd(_ item: NewItem) throws {
        try expectDone(.previewAdd(item), "previewAdd")
    }

    public func previewSearch(_ query: ItemQuery) throws -> OperationPreview {
        try preview(.previewSearch(query), "previewSearch")
    }

    public func previewUpdate(_ query: ItemQuery, with changes: ItemChanges) throws -> OperationPreview {
        try preview(.previewUpdate(query, changes), "previewUpdate")
    }

    public func previewDelete(_ query: ItemQuery) throws -> OperationPreview {
        try preview(.previewDelete(query), "previewDelete")
    }

    public func info() throws -> KeychainInfo {
        guard case .info(let info) = try service.perform(.keychainInfo, as: caller) else {
            throw unexpectedResponse(to: "keychainInfo")
        }
        return info
    }

    public func lock() throws { try expectDone(.lock, "lock") }

    public func unlock(passcode: Secret) throws { try expectDone(.unlock(passcode: passcode), "unlock") }

    public func setPasscode(_ new: Secret, current: Secret? = nil) throws {
        try expectDone(.setPasscode(new: new, current: current), "setPasscode")
    }

    /// Removes the passcode.
    /// - Returns: how many items went with it (WhenPasscodeSetThisDeviceOnly, and those only the passcode opened);
    ///   nil from a keychaind too old to count them.
    @discardableResult
    public func removePasscode(current: Secret) throws -> Int? {
        switch try service.perform(.removePasscode(current: current), as: caller) {
        case .deleted(let count): return count
        case .done: return nil
        default: throw unexpectedResponse(to: "removePasscode")
        }
    }

    public func setGracePeriod(_ seconds: Int) throws {
        try expectDone(.setGracePeriod(seconds: seconds), "setGracePeriod")
    }

    public func simulateRestart() throws { try expectDone(.simulateRestart, "simulateRestart") }

    public func backup(to path: String, password: Secret) throws -> BackupSummary {
        try summary(.backup(path: path, password: password), "backup")
    }

    public func restore(from path: String, password: Secret) throws -> BackupSummary {
        try summary(.restore(path: path, password: password), "restore")
    }

    public func biometryStatus() throws -> BiometryStatus {
        guard case .biometryStatus(let status) = try service.perform(.biometryStatus, as: caller) else {
            throw unexpectedResponse(to: "biometryStatus")
        }
        return status
    }

    public func simulatedBiometry(_ action: SimulatedBiometryAction) throws {
        try expectDone(.simulatedBiometry(action), "simulatedBiometry")
    }

    /// Drives the simulated companion; answers its state after the action.
    @discardableResult
    public func simulatedCompanion(_ action: SimulatedCompanionAction) throws -> CompanionStatus {
        guard case .companionStatus(let status) = try service.perform(.simulatedCompanion(action), as: caller) else {
            throw unexpectedResponse(to: "simulatedCompanion")
        }
        return status
    }

    public func describeService() throws -> ServiceDescription {
        guard case .service(let description) = try service.perform(.describeService, as: caller) else {
            throw unexpectedResponse(to: "describeService")
        }
        return description
    }

    /// What keeps the Secure Enclave keys of a service that holds them (keychaind's).
    public func enclaveBacking() throws -> EnclaveKeyBacking {
        guard case .enclaveBacking(let backing) = try service.perform(.enclaveKey(.backing), as: caller) else {
            throw unexpectedResponse(to: "enclaveKey")
        }
        return backing
    }

    private func expectDone(_ request: KeychainRequest, _ name: String) throws {
        guard case .done = try service.perform(request, as: caller) else { throw unexpectedResponse(to: name) }
    }

    private func preview(_ request: KeychainRequest, _ name: String) throws -> OperationPreview {
        guard case .preview(let preview) = try service.perform(request, as: caller) else {
            throw unexpectedResponse(to: name)
        }
        return preview
    }

    private func summary(_ request: KeychainRequest, _ name: String) throws -> BackupSummary {
        guard case .backup(let summary) = try service.perform(request, as: caller) else {
            throw unexpectedResponse(to: name)
        }
        return summary
    }
}
