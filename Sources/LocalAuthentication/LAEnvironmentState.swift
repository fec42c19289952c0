import Foundation
import KeychainCore
import KeychainRequests

/// What the keychain's authenticators are like at one moment: read with three requests (the sensor, the lock
/// state, the companion), compared to see whether anything changed.
struct EnvironmentSnapshot: Equatable, Sendable {
    var sensorPresent = false
    var enrolled = false
    var lockedOut = false
    var domainState: [UInt8]?
    var passcodeSet = false
    var companionPaired = false

    /// Nothing at all: the state of an environment whose keychain cannot be read.
    init() {}

    /// The authenticators of `client`'s keychain now; nil when one of them cannot be read, so that a request that
    /// failed once is not taken for a change.
    init?(_ client: KeychainClient) {
        guard let sensor = try? client.biometryStatus(), let info = try? client.info(),
            let companion = try? client.simulatedCompanion(.status)
        else { return nil }
        sensorPresent = sensor.isAvailable
        enrolled = sensor.isEnrolled
        lockedOut = sensor.isLockedOut
        domainState = sensor.domainState
        passcodeSet = info.hasPasscode
        companionPaired = companion.isPaired
    }
}

/// The authentication mechanisms of the user at one moment (iOS 17, macOS 14).
open class LAEnvironmentState: NSObject, NSCopying, @unchecked Sendable {  // safe: immutable
    let snapshot: EnvironmentSnapshot

    /// The biometric sensor; nil when there is none (a fingerprint reader that is not there).
    public let biometry: LAEnvironmentMechanismBiometry?
    /// The passcode: always present, set or not.
    public let userPassword: LAEnvironmentMechanismUserPassword?
    /// The paired companions (iOS 18, macOS 15): the simulated watch while it is paired.
    public let companions: [LAEnvironmentMechanismCompanion]

    init(_ snapshot: EnvironmentSnapshot) {
        self.snapshot = snapshot
        biometry = snapshot.sensorPresent ? LAEnvironmentMechanismBiometry(snapshot) : nil
        userPassword = LAEnvironmentMechanismUserPassword(isSet: snapshot.passcodeSet)
        companions = snapshot.companionPaired ? [LAEnvironmentMechanismCompanion(snapshot)] : []
    }

    /// Every mechanism: biometry, the passcode, then the companions.
    open var allMechanisms: [LAEnvironmentMechanism] {
        [biometry as LAEnvironmentMechanism?, userPassword].compactMap { $0 } + companions
    }

    open func copy(with zone: NSZone? = nil) -> Any { self }

    open override func isEqual(_ object: Any?) -> Bool { (object as? LAEnvironmentState)?.snapshot == snapshot }

    open override var hash: Int { snapshot.domainState?.hashValue ?? 0 }
}

/// One way the user can authenticate (iOS 17, macOS 14).
open class LAEnvironmentMechanism: NSObject, @unchecked Sendable {  // safe: immutable
    /// Whether it can authenticate the user now.
    public let isUsable: Bool
    /// Its name, for the user.
    public let localizedName: String
    /// The SF Symbol Apple's interface would show for it.
    public let iconSystemName: String

    init(isUsable: Bool, localizedName: String, iconSystemName: String) {
        self.isUsable = isUsable
        self.localizedName = localizedName
        self.iconSystemName = iconSystemName
    }
}

/// The biometric sensor: the simulated Touch ID sensor, or the machine's fingerprint reader through fprintd.
open class LAEnvironmentMechanismBiometry: LAEnvironmentMechanism, @unchecked Sendable {  // safe: immutable
    public let biometryType: LABiometryType
    public let isEnrolled: Bool
    public let isLockedOut: Bool
    /// Identifies the enrolled set, as `LAContext.evaluatedPolicyDomainState` does; empty while nothing is enrolled.
    public let stateHash: Data
    /// Whether a built-in sensor is there but cannot be used (a closed lid): never, here.
    public let builtInSensorInaccessible = false

    init(_ snapshot: EnvironmentSnapshot) {
        biometryType = .touchID
        isEnrolled = snapshot.enrolled
        isLockedOut = snapshot.lockedOut
        stateHash = Data(snapshot.domainState ?? [])
        // As on a device, biometry works only with a passcode set.
        super.init(
            isUsable: snapshot.enrolled && !snapshot.lockedOut && snapshot.passcodeSet, localizedName: "Touch ID",
            iconSystemName: "touchid")
    }
}

/// The keychain passcode, which is this keychain's device passcode.
open class LAEnvironmentMechanismUserPassword: LAEnvironmentMechanism, @unchecked Sendable {  // safe: immutable
    public let isSet: Bool

    init(isSet: Bool) {
        self.isSet = isSet
        super.init(isUsable: isSet, localizedName: "Passcode", iconSystemName: "lock")
    }
}

/// A paired companion device (iOS 18, macOS 15): the simulated watch.
open class LAEnvironmentMechanismCompanion: LAEnvironmentMechanism, @unchecked Sendable {  // safe: immutable
    public let type: LACompanionType
    /// Identifies the paired companion; the same while it stays paired.
    public let stateHash: Data?

    init(_ snapshot: EnvironmentSnapshot) {
        type = .watch
        stateHash = LADomainStateCompanion.simulatedWatchHash
        super.init(isUsable: snapshot.passcodeSet, localizedName: "Apple Watch", iconSystemName: "applewatch")
    }
}
