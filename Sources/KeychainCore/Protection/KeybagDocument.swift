import Foundation

/// The keybag file: class keys of the seven protection classes, each wrapped (RFC 3394).
///
/// JSON. Without a passcode every class key is wrapped by the device key. With a passcode the keys of classes A
/// (ak, aku, akpu) and C (ck, cku) are wrapped by a key derived from the passcode and tangled with the device key;
/// the deprecated Always classes (dk, dku) stay under the device key alone. Format 2 adds the retired generations
/// of renewed class keys (``retiredClasses``); earlier versions, which know only format 1, refuse it rather than
/// drop them. Format 3 adds ``passcodeConstraintRoot``, which a version of format 2 would ignore (and bind
/// devicePasscode constraints to the wrong key).
struct KeybagDocument: Codable, Equatable {
    var format = 1
    var passcode: PasscodeRecord?
    /// Seconds class A stays available after a lock; nil means the default.
    var gracePeriod: Int?
    /// Base64 of each wrapped class key, by class name.
    var classes: [String: String]
    /// Set when the passcode is removed, cleared once the items bound to its key are deleted: a crash between
    /// the two leaves the purge to the next open (absent in keybags of earlier versions, which ignore it).
    var passcodeBoundItemsToPurge: Bool?
    /// The earlier keys of the classes renewed at passcode changes, by class name, newest first, each wrapped
    /// (RFC 3394, base64) by the class's current key: whoever holds today's key of a class can open its older
    /// ones, and an older copy of the keybag opens none of today's.
    var retiredClasses: [String: [String]]?
    /// A renewal of the class keys whose items are not all resealed yet (its random id): set with the new keys,
    /// cleared once every item of the renewed classes has a new item key under them. A crash or failure between
    /// the two leaves the reseal to the next open or unlock; the id keeps a reseal from clearing a later renewal's.
    var unfinishedRenewal: String?
    /// A check value of each passcode-protected class key (base64, ``ProtectionState/checkValue(of:)``), so a
    /// process can tell whether the key it holds unlocked is today's: another process may have changed the
    /// passcode, and with it the keys, since. Absent in keybags of earlier versions and without a passcode.
    var keyChecks: [String: String]?
    /// The key the devicePasscode constraint key is derived from once `akpu` has been renewed: `akpu`'s key of
    /// when the passcode was set, to which the constraints of the items sealed since are bound, wrapped (RFC 3394,
    /// base64) by `akpu`'s current key. Absent before the first change: the constraint key then comes from `akpu`'s
    /// key itself. Gone, with `akpu`, when the passcode is removed.
    var passcodeConstraintRoot: String?

    static let defaultGracePeriod = 10
    /// Grace periods `setGracePeriod` accepts: up to a day (Apple's longest "Require Passcode" delay is hours),
    /// well inside the kernel's 32-bit key timeouts.
    static let gracePeriodRange = 0...86_400
    static let fileName = "keybag"

    /// How a passcode is stretched, and the state of wrong attempts (kept here, so restarts do not reset it).
    struct PasscodeRecord: Codable, Equatable {
        var kdf = "pbkdf2-sha256"
        var iterations: Int
        var salt: String
        /// What one derivation cost when the iterations were chosen.
        var milliseconds: Double
        var failures = 0
        /// No attempt is accepted before this time (seconds since the reference date).
        var notBefore: Double = 0
        /// The same two for the owner's attempts (``PasscodeAttempter/owner``), counted apart; absent until the
        /// owner gets one wrong, and in keybags written before they were kept.
        var ownerFailures: Int?
        var ownerNotBefore: Double?

        /// The wrong attempts in a row of `attempter`, and the time before which it may not try again.
        func backOff(of attempter: PasscodeAttempter) -> (failures: Int, notBefore: Double) {
            switch attempter {
            case .anyone: (failures, notBefore)
            case .owner: (ownerFailures ?? 0, ownerNotBefore ?? 0)
            }
        }

        mutating func setBackOff(failures: Int, notBefore: Double, of attempter: PasscodeAttempter) {
            switch attempter {
            case .anyone: (self.failures, self.notBefore) = (failures, notBefore)
            case .owner: (ownerFailures, ownerNotBefore) = (failures, notBefore)
            }
        }

        /// Whether any count holds a wrong attempt.
        var hasFailures: Bool { failures != 0 || ownerFailures != nil || ownerNotBefore != nil }

        /// Clears every count: a right passcode, whoever typed it.
        mutating func clearFailures() {
            (failures, notBefore, ownerFailures, ownerNotBefore) = (0, 0, nil, nil)
        }

        /// The first field holding a value no passcode setting produces, whose arithmetic could trap: the
        /// iterations PBKDF2 takes (32-bit), a count that can grow by one, finite times within ±30,000 years.
        var fieldOutOfRange: String? {
            if !(1...Int(Int32.max)).contains(iterations) { return "iterations" }
            for count in [failures, ownerFailures ?? 0] where !(0...1_000_000).contains(count) {
                return "failure count"
            }
            for time in [notBefore, ownerNotBefore ?? 0] where !(-1e12...1e12).contains(time) { return "retry time" }
            if !(0...1e9).contains(milliseconds) { return "derivation cost" }
            return nil
        }
    }

    /// Classes whose keys a passcode protects.
    static func isPasscodeProtected(_ protection: Accessibility) -> Bool {
        switch protection {
        case .always, .alwaysThisDeviceOnly: false
        default: true
        }
    }

    func wrapped(_ protection: Accessibility) -> [UInt8]? {
        classes[protection.rawValue].flatMap { Data(base64Encoded: $0) }.map(Array.init)
    }

    mutating func setWrapped(_ protection: Accessibility, _ bytes: [UInt8]?) {
        classes[protection.rawValue] = bytes.map { Data($0).base64EncodedString() }
    }

    /// The wrapped retired keys of `protection`, newest first.
    func retired(_ protection: Accessibility) -> [[UInt8]] {
        (retiredClasses?[protection.rawValue] ?? []).compactMap { Data(base64Encoded: $0).map(Array.init) }
    }

    mutating func setRetired(_ protection: Accessibility, _ wrapped: [[UInt8]]) {
        var all = retiredClasses ?? [:]
        all[protection.rawValue] = wrapped.isEmpty ? nil : wrapped.map { Data($0).base64EncodedString() }
        retiredClasses = all.isEmpty ? nil : all
        settleFormat()
    }

    /// The wrapped ``passcodeConstraintRoot``.
    var wrappedPasscodeConstraintRoot: [UInt8]? {
        get { passcodeConstraintRoot.flatMap { Data(base64Encoded: $0) }.map(Array.init) }
        set {
            passcodeConstraintRoot = newValue.map { Data($0).base64EncodedString() }
            settleFormat()
        }
    }

    /// The lowest format that holds what the document holds, so that an earlier version reads what it can.
    private mutating func settleFormat() {
        format = passcodeConstraintRoot != nil ? 3 : retiredClasses != nil ? 2 : 1
    }

    func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return Array(try encoder.encode(self))
    }

    static func decode(_ bytes: [UInt8]) throws -> KeybagDocument {
        guard let document = try? JSONDecoder().decode(KeybagDocument.self, from: Data(bytes)),
            (1...3).contains(document.format)
        else { throw KeychainError.notAvailable.because("the keybag file is damaged or of an unknown format") }
        if let record = document.passcode, let field = record.fieldOutOfRange {
            throw KeychainError.notAvailable.because(
                "the keybag file is damaged: its passcode \(field) is out of range")
        }
        return document
    }
}
