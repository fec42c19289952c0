/// Every label and domain byte with which the keychain derives a key or binds a ciphertext or digest, in one
/// place, so that an auditor checks in one file that no two uses share one (`KeyHierarchyTests` checks it too).
/// These bytes are part of the stored formats: changing one makes existing homes unreadable.
enum KeyHierarchy {
    // MARK: HKDF-SHA-256 from the device key or a class key (salt `derivationSalt`)

    static let derivationSalt = "keychain"
    /// Device key → the key of the lookup digests.
    static let attributeIndexKey = "attribute index key v1"
    /// Device key → the name of the home's kernel keyring (8 bytes; not secret, only distinct per home).
    static let keyringNamespace = "keyring namespace v1"
    /// WhenPasscodeSetThisDeviceOnly class key → the key `.devicePasscode` constraints are bound to.
    static let devicePasscodeConstraint = "device passcode constraint v1"
    /// Device key → the key that seals the software Secure Enclave's keys (administrator opt-in, no TPM).
    static let softwareEnclaveWrappingKey = "software enclave wrapping key v1"

    // MARK: RFC 3394 under a class key

    /// The text each class key wraps into its check value in the keybag (24 bytes, a multiple of 8 as the wrap
    /// needs; tells today's key from an older one a process still holds).
    static let classKeyCheck = "class key check value v1"

    // MARK: HMAC-SHA-256 under the device key, over `label ‖ 0 ‖ input`

    /// The stretched passcode → the key that wraps classes A and C.
    static let passcodeTangle = "keychain passcode key v1"
    /// The simulated sensor's secrets → its factor keys and its domain state.
    static let simulatedBiometryAny = "keychain biometry any v1"
    static let simulatedBiometryCurrentSet = "keychain biometry current set v1"
    static let simulatedBiometryDomainState = "keychain domain state v1"
    /// A fingerprint reader's enrollment → its factor key, enrolled-set digest and domain state.
    static let fingerprintCurrentSet = "keychain fingerprint current set v1"
    static let fingerprintEnrolledSet = "keychain fingerprint enrolled set v1"
    static let fingerprintDomainState = "keychain fingerprint domain state v1"
    /// The companion's secret → its factor key.
    static let companion = "keychain companion v1"

    // MARK: Constraint alternatives (HKDF-SHA-256 of the factor keys, salt per alternative)

    /// Followed by the alternative's factor codes joined by ",".
    static let constraintAlternativePrefix = "keychain constraint v1 "

    // MARK: Backups (HKDF-SHA-256 of the PBKDF2-stretched backup password)

    static let backupSalt = "keychain backup"
    static let backupPayloadKey = "payload key v1"
    static let backupPasswordCheck = "password check v1"

    // MARK: Item ciphertexts (AES-GCM additional data: prefix ‖ 0 ‖ table ‖ 0 ‖ uuid ‖ class ‖ 0 ‖ version ‖ part)

    static let itemAssociatedDataPrefix = "keychain-item"

    /// The part of an item a ciphertext holds.
    enum ItemPart: UInt8, CaseIterable {
        case metadata = 0x6D
        case secret = 0x73
        /// A constrained secret's key envelope, with the secret it keeps (item format 2).
        case constrainedEnvelope = 0x63
    }

    // MARK: Lookup digests (HMAC-SHA-256 under the index key, over `domain ‖ attribute ‖ 0 ‖ value`)

    enum DigestDomain: UInt8, CaseIterable {
        /// A column digest of a value.
        case column = 0x64
        /// A column digest of a case-folded value.
        case folded = 0x66
        /// The digest of a whole primary key (`domain ‖ class ‖ parts`).
        case primaryKey = 0x70
    }

    /// Every label above, for the uniqueness check.
    static let allLabels: [String] = [
        attributeIndexKey, keyringNamespace, devicePasscodeConstraint, softwareEnclaveWrappingKey, passcodeTangle,
        simulatedBiometryAny, simulatedBiometryCurrentSet, simulatedBiometryDomainState, fingerprintCurrentSet,
        fingerprintEnrolledSet, fingerprintDomainState, companion, constraintAlternativePrefix, backupPayloadKey,
        backupPasswordCheck, itemAssociatedDataPrefix,
    ]
}
