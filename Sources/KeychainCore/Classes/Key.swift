extension ClassSchema {
    /// `kSecClassKey` (`keys`): a private, public or symmetric key, its value the key's external representation.
    /// Apple's keys table keys on the class, application label and tag, creator, type and sizes with the group and
    /// sync (its start and end dates, which iOS offers no way to set, are always their default here). A key of a token
    /// (`tkid`, the Secure Enclave) is bound to this machine: it never leaves in a backup and is never synchronizable.
    static let key = ClassSchema(
        itemClass: .key,
        attributes: [
            .keyClass: .number, .label: .text, .alias: .text, .applicationLabel: .data, .applicationTag: .text,
            .creator: .number, .keyType: .number, .keySizeInBits: .number, .effectiveKeySize: .number,
            .isPermanent: .boolean, .isPrivate: .boolean, .isModifiable: .boolean, .isSensitive: .boolean,
            .wasAlwaysSensitive: .boolean, .isExtractable: .boolean, .wasNeverExtractable: .boolean,
            .canEncrypt: .boolean, .canDecrypt: .boolean, .canDerive: .boolean, .canSign: .boolean,
            .canVerify: .boolean, .canSignRecover: .boolean, .canVerifyRecover: .boolean, .canWrap: .boolean,
            .canUnwrap: .boolean, .tokenID: .text, .creationDate: .date, .modificationDate: .date,
        ],
        primaryKey: [
            .keyClass, .applicationLabel, .applicationTag, .creator, .keyType, .keySizeInBits,
            .effectiveKeySize,
        ],
        valueKind: .key, backsUp: true,
        describesValue: [.keyClass, .keyType, .keySizeInBits, .tokenID])
}
