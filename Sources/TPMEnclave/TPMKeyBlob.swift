@_implementationOnly import CTSS2

/// A TPM key as the keychain stores it: `"KTPM" ‖ use (1 signing, 2 ECDH, 3 both; + 0x80 under the
/// lockout-exempt primary) ‖ len ‖ TPM2B_PUBLIC ‖ len ‖ TPM2B_PRIVATE`, both in the TPM's canonical marshaling. The
/// private area is encrypted and integrity-protected by the TPM's storage hierarchy: only the TPM that made it can
/// load it, under the primary key it was made under, and the key inside never leaves the TPM.
package struct TPMKeyBlob: Sendable {
    private static let magic: [UInt8] = Array("KTPM".utf8)
    /// The bit of the use byte that names the lockout-exempt primary; keys made before it have it clear.
    private static let lockoutExemptParentBit: UInt8 = 0x80

    /// What the key does.
    package let use: TPMKeyUse
    /// The primary key the key was made under, and must be loaded under.
    package let parent: TPMPrimary
    /// Whether the key signs only (else it does ECDH, or both).
    package var signing: Bool { use == .signing }
    /// The two TSS2 structures as their bytes in memory: TSS2's types stay out of the module's layouts, so that a
    /// client of the module never needs TSS2's headers.
    private let publicBytes: [UInt8]
    private let privateBytes: [UInt8]
    var publicArea: TPM2B_PUBLIC { publicBytes.withUnsafeBytes { $0.loadUnaligned(as: TPM2B_PUBLIC.self) } }
    var privateArea: TPM2B_PRIVATE { privateBytes.withUnsafeBytes { $0.loadUnaligned(as: TPM2B_PRIVATE.self) } }

    init(
        public publicArea: TPM2B_PUBLIC, private privateArea: TPM2B_PRIVATE, use: TPMKeyUse, parent: TPMPrimary
    ) throws(TPMError) {
        var area = publicArea
        guard kchtpm_is_enclave_key(&area, Int32(use.rawValue)) == 1 else { throw .invalidKeyBlob }
        publicBytes = withUnsafeBytes(of: publicArea) { Array($0) }
        privateBytes = withUnsafeBytes(of: privateArea) { Array($0) }
        self.use = use
        self.parent = parent
    }

    /// Parses bytes written by ``serialized``.
    /// - Throws: `TPMError.invalidKeyBlob` when they are not a blob for this use.
    package init(serialized bytes: [UInt8], signing: Bool) throws(TPMError) {
        try self.init(serialized: bytes, use: signing ? .signing : .keyAgreement)
    }

    /// Parses bytes written by ``serialized`` for a key of `use`.
    /// - Throws: `TPMError.invalidKeyBlob` when they are not a blob for this use.
    package init(serialized bytes: [UInt8], use: TPMKeyUse) throws(TPMError) {
        guard bytes.count > 5, Array(bytes[0..<4]) == Self.magic,
            bytes[4] & ~Self.lockoutExemptParentBit == use.rawValue
        else { throw .invalidKeyBlob }
        let parent: TPMPrimary = bytes[4] & Self.lockoutExemptParentBit == 0 ? .legacy : .lockoutExempt
        var publicArea = TPM2B_PUBLIC()
        var privateArea = TPM2B_PRIVATE()
        var offset = 5
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            Tss2_MU_TPM2B_PUBLIC_Unmarshal(buffer.baseAddress, buffer.count, &offset, &publicArea) == 0
                && Tss2_MU_TPM2B_PRIVATE_Unmarshal(buffer.baseAddress, buffer.count, &offset, &privateArea) == 0
        }
        guard parsed, offset == bytes.count else { throw .invalidKeyBlob }
        try self.init(public: publicArea, private: privateArea, use: use, parent: parent)
    }

    /// The blob's bytes.
    package var serialized: [UInt8] {
        var buffer = [UInt8](
            repeating: 0, count: 5 + MemoryLayout<TPM2B_PUBLIC>.size + MemoryLayout<TPM2B_PRIVATE>.size)
        var offset = 0
        var publicArea = self.publicArea
        var privateArea = self.privateArea
        buffer.withUnsafeMutableBufferPointer { out in
            for (index, byte) in Self.magic.enumerated() { out[index] = byte }
            out[4] = use.rawValue | (parent == .lockoutExempt ? Self.lockoutExemptParentBit : 0)
            offset = 5
            _ = Tss2_MU_TPM2B_PUBLIC_Marshal(&publicArea, out.baseAddress, out.count, &offset)
            _ = Tss2_MU_TPM2B_PRIVATE_Marshal(&privateArea, out.baseAddress, out.count, &offset)
        }
        return Array(buffer[0..<offset])
    }

    /// The public point, `04 ‖ x ‖ y`.
    package var publicPoint: [UInt8] {
        let ecc = publicArea.publicArea.unique.ecc
        func coordinate(_ parameter: TPM2B_ECC_PARAMETER) -> [UInt8] {
            var value = parameter
            let size = min(Int(value.size), 32)
            let bytes = withUnsafeBytes(of: &value.buffer) { Array($0.prefix(size)) }
            return [UInt8](repeating: 0, count: 32 - size) + bytes
        }
        return [0x04] + coordinate(ecc.x) + coordinate(ecc.y)
    }
}

/// The storage primary keys a key can be made under. Both come from the owner seed and the same template but for
/// noDA, so they are two different keys: a blob names its own.
package enum TPMPrimary: Sendable {
    /// The primary of keys made before the exemption: unusable while the TPM is in dictionary-attack lockout.
    case legacy
    /// The primary with noDA, usable in lockout; every new key's.
    case lockoutExempt
}
