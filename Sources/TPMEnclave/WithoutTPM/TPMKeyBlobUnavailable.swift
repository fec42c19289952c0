// The key blob of a build without TSS2 (see TPMConnectionUnavailable.swift): without TSS2's unmarshalling a
// blob cannot be read, so none is made.

/// A TPM key blob, which this build cannot read.
package struct TPMKeyBlob: Sendable {
    package let use: TPMKeyUse
    package var signing: Bool { use == .signing }

    /// - Throws: `TPMError.notBuiltIn`, always.
    package init(serialized bytes: [UInt8], signing: Bool) throws(TPMError) {
        try self.init(serialized: bytes, use: signing ? .signing : .keyAgreement)
    }

    /// - Throws: `TPMError.notBuiltIn`, always.
    package init(serialized bytes: [UInt8], use: TPMKeyUse) throws(TPMError) { throw .notBuiltIn }

    package var serialized: [UInt8] { [] }

    package var publicPoint: [UInt8] { [] }
}
