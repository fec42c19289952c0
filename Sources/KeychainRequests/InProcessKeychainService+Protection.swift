import Foundation
import KeychainCore

extension InProcessKeychainService {
    /// Lock state, passcode and backups: the keychain's own, whoever the caller; only the count of wrong passcodes
    /// (a passcode's check, and what `keychainInfo` reports of it) tells the owner (keychaind's owner rights) from
    /// anyone else.
    func performProtectionRequest(_ request: KeychainRequest, as caller: Caller) throws -> KeychainResponse {
        let attempter: PasscodeAttempter = caller.identity.isOwner ? .owner : .anyone
        switch request {
        case .keychainInfo: return .info(try keychain.info(attempter: attempter))
        case .lock: try keychain.lock()
        case .unlock(let passcode): try keychain.unlock(passcode: passcode, attempter: attempter)
        case .setPasscode(let new, let current): try keychain.setPasscode(new, current: current, attempter: attempter)
        case .removePasscode(let current):
            return .deleted(count: try keychain.removePasscode(current: current, attempter: attempter))
        case .setGracePeriod(let seconds): try keychain.setGracePeriod(seconds)
        case .simulateRestart: keychain.simulateRestart()
        case .backup(let path, let password):
            return .backup(try keychain.backup(to: URL(fileURLWithPath: path), password: password))
        case .restore(let path, let password):
            return .backup(try keychain.restore(from: URL(fileURLWithPath: path), password: password))
        case .backupArchive(let password):
            let made = try keychain.backupArchive(password: password)
            return .backupArchive(made.archive, made.summary)
        case .restoreArchive(let archive, let password):
            return .backup(try keychain.restore(archive: archive, password: password))
        default:
            throw KeychainError.param.because("not a lock-state or backup request")
        }
        return .done
    }

    /// The sensor's state, the simulated devices, and what the keychain is.
    func performDeviceRequest(_ request: KeychainRequest) throws -> KeychainResponse {
        let authenticators = keychain.authenticators
        switch request {
        case .biometryStatus:
            return .biometryStatus(try authenticators.sensorStatus())
        case .simulatedBiometry(let action):
            let sensor = authenticators.biometry
            switch action {
            case .enroll: try sensor.enroll()
            case .unenroll: try sensor.unenroll()
            case .changeEnrollment: try sensor.changeEnrollment()
            case .script(let outcome): try sensor.script(outcome)
            }
            return .done
        case .simulatedCompanion(let action):
            let companion = authenticators.companion
            switch action {
            case .pair: try companion.pair()
            case .unpair: try companion.unpair()
            case .script(let outcome): try companion.script(outcome)
            case .status: break
            }
            return .companionStatus(try companion.status())
        case .describeService:
            let configuration = keychain.configuration
            return .service(
                ServiceDescription(
                    databasePath: configuration.home.appendingPathComponent(Keychain.databaseFileName).path,
                    usesFingerprintReader: authenticators.usesFingerprintReader,
                    backEnds: SystemAuthenticationBackEnds.detect(configuration).summary))
        default:
            throw KeychainError.param.because("not an authenticator request")
        }
    }
}
