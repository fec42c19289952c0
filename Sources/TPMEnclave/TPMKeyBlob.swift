@_implementationOnly import CTSS2

/// A TPM key as the keychain stores it: `"KTPM" ‖ use (1 signing, 2 ECDH, 3 both; + 0x80 under the
/// lockout-exempt primary, + 0x40 when the parent's name follows) ‖ len ‖ TPM2B_PUBLIC ‖ len ‖ TPM2B_PRIVATE
/// [‖ len ‖ TPM2B_NAME of the parent]`, all in the TPM's canonical marshaling. The private area is encrypted and
/// integrity-protected by the TPM's storage hierarchy: only the TPM that made it can load it, under the primary key
/// it was made under, and the key inside never leaves the TPM. The parent's name pins that primary: a TPM (or
/// something on its transport) that answers with another is refused before the key is sent to it. Releases before
/// the name read 0x40 as a use they do not know and refuse the blob (errSecParam), as releases before 0x80 did.
package struct TPMKeyBlob: Sendable {
    private static let magic: [UInt8] = Array("KTPM".utf8)
    /// The bit of the use byte that names the lockout-exempt primary; keys made before it have it clear.
    private static let lockoutExemptParentBit: UInt8 = 0x80
    /// The bit of the use byte that says the parent's name follows the private area; keys made before it have it
    /// clear.
    private static let parentNameBit: UInt8 = 0x40

    /// What the key does.
    package let use: TPMKeyUse
    /// The primary key the key was made under, and must be loaded under.
    package let parent: TPMPrimary
    /// That primary's name (TPM2B_NAME's bytes: the name algorithm and the digest of its public area); nil in blobs
    /// made before it was recorded, which load under whatever primary the TPM gives.
    package let parentName: [UInt8]?
    /// Whether the key signs only (else it does ECDH, or both).
    package var signing: Bool { use == .signing }
    /// The two TSS2 structures as their bytes in memory: TSS2's types stay out of the module's layouts, so that a
    /// client of the module never needs TSS2's headers.
    private let publicBytes: [UInt8]
    private let privateBytes: [UInt8]
    var publicArea: TPM2B_PUBLIC { publicBytes.withUnsafeBytes { $0.loadUnaligned(as: TPM2B_PUBLIC.self) } }
    var privateArea: TPM2B_PRIVATE { privateBytes.withUnsafeBytes { $0.loadUnaligned(as: TPM2B_PRIVATE.self) } }

    init(
        public publicArea: TPM2B_PUBLIC, private privateArea: TPM2B_PRIVATE, use: TPMKeyUse, parent: TPMPrimary,
        parentName: [UInt8]?
    ) throws(TPMError) {
        var area = publicArea
        guard kchtpm_is_enclave_key(&area, Int32(use.rawValue)) == 1 else { throw .invalidKeyBlob }
        if let parentName {
            guard !parentName.isEmpty, parentName.count <= MemoryLayout<TPMU_NAME>.size else { throw .invalidKeyBlob }
        }
        publicBytes = withUnsafeBytes(of: publicArea) { Array($0) }
        privateBytes = withUnsafeBytes(of: privateArea) { Array($0) }
        self.use = use
        self.parent = parent
        self.parentName = parentName
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
            bytes[4] & ~(Self.lockoutExemptParentBit | Self.parentNameBit) == use.rawValue
        else { throw .invalidKeyBlob }
        let parent: TPMPrimary = bytes[4] & Self.lockoutExemptParentBit == 0 ? .legacy : .lockoutExempt
        let named = bytes[4] & Self.parentNameBit != 0
        var publicArea = TPM2B_PUBLIC()
        var privateArea = TPM2B_PRIVATE()
        var name = TPM2B_NAME()
        var offset = 5
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            Tss2_MU_TPM2B_PUBLIC_Unmarshal(buffer.baseAddress, buffer.count, &offset, &publicArea) == 0
                && Tss2_MU_TPM2B_PRIVATE_Unmarshal(buffer.baseAddress, buffer.count, &offset, &privateArea) == 0
                && (!named || Tss2_MU_TPM2B_NAME_Unmarshal(buffer.baseAddress, buffer.count, &offset, &name) == 0)
        }
        guard parsed, offset == bytes.count else { throw .invalidKeyBlob }
        let size = min(Int(name.size), MemoryLayout.size(ofValue: name.name))
        let parentName = named ? withUnsafeBytes(of: &name.name) { Array($0.prefix(size)) } : nil
        try self.init(public: publicArea, private: privateArea, use: use, parent: parent, parentName: parentName)
    }

    /// The blob's bytes.
    package var serialized: [UInt8] {
        var buffer = [UInt8](
            repeating: 0,
            count: 5 + MemoryLayout<TPM2B_PUBLIC>.size + MemoryLayout<TPM2B_PRIVATE>.size
                + MemoryLayout<TPM2B_NAME>.size)
        var offset = 0
        var publicArea = self.publicArea
        var privateArea = self.privateArea
        var name = TPM2B_NAME()
        if let parentName {
            name.size = UInt16(parentName.count)
            withUnsafeMutableBytes(of: &name.name) { $0.copyBytes(from: parentName) }
        }
        buffer.withUnsafeMutableBufferPointer { out in
            for (index, byte) in Self.magic.enumerated() { out[index] = byte }
            out[4] =
                use.rawValue | (parent == .lockoutExempt ? Self.lockoutExemptParentBit : 0)
                | (parentName != nil ? Self.parentNameBit : 0)
            offset = 5
            _ = Tss2_MU_TPM2B_PUBLIC_Marshal(&publicArea, out.baseAddress, out.count, &offset)
            _ = Tss2_MU_TPM2B_PRIVATE_Marshal(&privateArea, out.baseAddress, out.count, &offset)
            if parentName != nil { _ = Tss2_MU_TPM2B_NAME_Marshal(&name, out.baseAddress, out.count, &offset) }
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
