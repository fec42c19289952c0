import KeychainCrypto

/// Which alternatives of a constrained item a prompt could still satisfy, worked out before asking, so that no
/// prompt is shown (and no passcode entry consumed) that cannot open the item.
extension Keychain {
    /// The alternatives of `envelope` a prompt could still satisfy, and why none can when the list is empty.
    /// Biometry and companion factors count only while a passcode is set (Apple's biometry needs one); a
    /// passcode alternative whose key the current passcode's key does not unwrap was bound to a removed passcode.
    /// When such an alternative is gone, a biometry one is not offered either while nothing is enrolled.
    func promptableAlternatives(
        _ envelope: ConstraintEnvelope, context: AuthenticationContext, sensor: BiometricKeys
    ) throws -> (alternatives: [[ConstraintFactor]], reasonIfNone: KeychainError.Reason) {
        let all = envelope.alternatives.map(\.factors)
        guard try dataProtection.hasPasscode else {
            let kept = all.filter { factors in !factors.contains { $0.method != nil } }
            return (
                kept, Reason("biometry, companion and passcode constraints need a device passcode, and none is set")
            )
        }
        let gone = envelope.alternatives.filter { isBoundToRemovedPasscode($0, context: context, sensor: sensor) }
            .map(\.factors)
        guard !gone.isEmpty else { return (all, unsatisfiedReason(all)) }
        let kept = all.filter { factors in
            !gone.contains(factors) && (sensor.domainState != nil || !factors.contains { $0.method == .biometry })
        }
        return (
            kept,
            Self.onlyThePasscodeOpens(all)
                ? Self.removedPasscodeReason
                : Reason(
                    "the item's passcode alternatives need the device passcode it was stored under, which was "
                        + "removed, and its other alternatives need biometry, and none is enrolled")
        )
    }

    /// Whether a passcode alternative's key, made from the keys held now, fails to unwrap its copy of the secret
    /// key: the passcode it was made under was removed. False when the key cannot be made now (an application
    /// password not given, the keychain locked): nothing is known then.
    private func isBoundToRemovedPasscode(
        _ alternative: ConstraintEnvelope.Alternative, context: AuthenticationContext, sensor: BiometricKeys
    ) -> Bool {
        guard alternative.factors.contains(.devicePasscode),
            let key = try? alternativeKey(
                alternative.factors, salt: Array(alternative.salt), iterations: alternative.iterations,
                context: context, creating: false, sensor: sensor)
        else { return false }
        return (try? AESKeyWrap.unwrap(Array(alternative.wrapped), kek: key)) == nil
    }
}
