import KeychainCore

/// The attribute codec (the plaintext of the sealed `meta` column): decoding must reject damage with an error,
/// and what it accepts must encode to bytes that decode to the same encoding (a fixed point after one trip).
extension FuzzTarget {
    static let attributeCodec = FuzzTarget(
        name: "attribute-codec",
        summary: "AttributeCodec.decode of the input, then an encode/decode round trip"
    ) { bytes in
        guard let attributes = try? FuzzEntryPoints.decodeAttributes(bytes) else { return }
        // Decoded attributes are at most as long as the input, so they always encode.
        guard let encoded = try? FuzzEntryPoints.encodeAttributes(attributes) else {
            fuzzCheck(false, "decoded attributes do not encode")
            return
        }
        guard let again = try? FuzzEntryPoints.decodeAttributes(encoded) else {
            fuzzCheck(false, "decoded attributes encode to bytes that do not decode")
            return
        }
        fuzzCheck((try? FuzzEntryPoints.encodeAttributes(again)) == encoded, "attribute encoding is not stable")
    }
}
