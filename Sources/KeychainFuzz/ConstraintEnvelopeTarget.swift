import KeychainCore

/// The constraint envelope in front of a constrained item's sealed secret (both the binary format and the
/// JSON format still read): damage is an error, and a binary envelope that reads writes back byte for byte.
extension FuzzTarget {
    static let constraintEnvelope = FuzzTarget(
        name: "constraint-envelope",
        summary: "ConstraintEnvelope.unframing of the input; binary envelopes must re-frame to the same bytes"
    ) { bytes in
        let reframed: [UInt8]?
        do {
            reframed = try FuzzEntryPoints.reframeConstraintEnvelope(bytes)
        } catch {
            return
        }
        if let reframed { fuzzCheck(reframed == bytes, "a binary envelope does not re-frame to its own bytes") }
    }
}
