/// Apple's `OSStatus` values for Keychain Services and the texts `SecCopyErrorMessageString` gives for them
/// (SecBase.h).
public enum SecurityStatus {
    public static let success: Int32 = 0
    public static let unimplemented: Int32 = -4
    public static let diskFull: Int32 = -34
    public static let io: Int32 = -36
    public static let param: Int32 = -50
    public static let writePermission: Int32 = -61
    public static let allocate: Int32 = -108
    public static let userCanceled: Int32 = -128
    public static let badReq: Int32 = -909
    public static let notAvailable: Int32 = -25291
    public static let readOnly: Int32 = -25292
    public static let authFailed: Int32 = -25293
    public static let noSuchKeychain: Int32 = -25294
    public static let duplicateItem: Int32 = -25299
    public static let itemNotFound: Int32 = -25300
    public static let bufferTooSmall: Int32 = -25301
    public static let dataTooLarge: Int32 = -25302
    public static let noSuchAttr: Int32 = -25303
    public static let invalidItemRef: Int32 = -25304
    public static let invalidSearchRef: Int32 = -25305
    public static let noSuchClass: Int32 = -25306
    public static let noDefaultKeychain: Int32 = -25307
    public static let interactionNotAllowed: Int32 = -25308
    public static let dataNotAvailable: Int32 = -25316
    public static let dataNotModifiable: Int32 = -25317
    public static let decode: Int32 = -26275
    public static let verifyFailed: Int32 = -67808
    public static let missingEntitlement: Int32 = -34018
    public static let invalidKeychain: Int32 = -25295
    public static let internalComponent: Int32 = -2070
    public static let coreFoundationUnknown: Int32 = -4960
    public static let duplicateKeychain: Int32 = -25296
    public static let readOnlyAttribute: Int32 = -25309
    public static let noAccessForItem: Int32 = -25243
    public static let invalidOwnerEdit: Int32 = -25244
    public static let notTrusted: Int32 = -67843
    // Certificates and trust (SecBase.h); SecTrustEvaluateWithError reports these.
    public static let createChainFailed: Int32 = -25318
    public static let hostNameMismatch: Int32 = -67602
    public static let unknownCriticalExtensionFlag: Int32 = -67603
    public static let noBasicConstraints: Int32 = -67604
    public static let noBasicConstraintsCA: Int32 = -67605
    public static let invalidKeyUsageForPolicy: Int32 = -67608
    public static let invalidExtendedKeyUsage: Int32 = -67609
    public static let pathLengthConstraintExceeded: Int32 = -67611
    public static let certificateExpired: Int32 = -67818
    public static let certificateNotValidYet: Int32 = -67819
    /// `errSecInternal` of SecBasePriv.h: what `SecCertificateCopyCommonName` returns for a subject without one.
    public static let securityFrameworkInternal: Int32 = -26276

    private static let messages: [Int32: String] = [
        success: "No error.",
        unimplemented: "Function or operation not implemented.",
        diskFull: "The disk is full.",
        io: "I/O error.",
        param: "One or more parameters passed to a function were not valid.",
        writePermission: "Write permissions error.",
        allocate: "Failed to allocate memory.",
        userCanceled: "User canceled the operation.",
        badReq: "Bad parameter or invalid state for operation.",
        notAvailable: "No keychain is available. You may need to restart your computer.",
        readOnly: "This keychain cannot be modified.",
        authFailed: "The user name or passphrase you entered is not correct.",
        noSuchKeychain: "The specified keychain could not be found.",
        invalidKeychain: "The specified keychain is not a valid keychain file.",
        duplicateItem: "The specified item already exists in the keychain.",
        itemNotFound: "The specified item could not be found in the keychain.",
        bufferTooSmall: "There is not enough memory available to use the specified item.",
        dataTooLarge: "This item contains information which is too large or in a format that cannot be displayed.",
        noSuchAttr: "The specified attribute does not exist.",
        invalidItemRef: "The specified item is no longer valid. It may have been deleted from the keychain.",
        invalidSearchRef: "Unable to search the current keychain.",
        noSuchClass: "The specified item does not appear to be a valid keychain item.",
        noDefaultKeychain: "A default keychain could not be found.",
        duplicateKeychain: "A keychain with the same name already exists.",
        readOnlyAttribute: "The specified attribute could not be modified.",
        noAccessForItem: "The specified item has no access control.",
        invalidOwnerEdit: "Invalid attempt to change the owner of this item.",
        interactionNotAllowed: "User interaction is not allowed.",
        dataNotAvailable: "The contents of this item cannot be retrieved.",
        dataNotModifiable: "The contents of this item cannot be modified.",
        decode: "Unable to decode the provided data.",
        verifyFailed: "A cryptographic verification failure has occurred.",
        missingEntitlement: "A required entitlement isn't present.",
        internalComponent: "An internal component failed.",
        notTrusted: "The certificate was not trusted.",
        createChainFailed: "One or more certificates required to validate this certificate cannot be found.",
        hostNameMismatch: "A host name mismatch has occurred.",
        unknownCriticalExtensionFlag: "There is an unknown critical extension flag.",
        noBasicConstraints: "No basic constraints were found.",
        noBasicConstraintsCA: "No basic CA constraints were found.",
        invalidKeyUsageForPolicy: "The key usage is not valid for the specified policy.",
        invalidExtendedKeyUsage: "The extended key usage is not valid.",
        pathLengthConstraintExceeded: "The path length constraint was exceeded.",
        certificateExpired: "An expired certificate was detected.",
        certificateNotValidYet: "The certificate is not yet valid.",
        securityFrameworkInternal: "An internal error occurred in the Security framework.",
    ]

    /// Apple's message for `status`, or "OSStatus N" for a code it does not describe (SecBase.h gives
    /// errSecCoreFoundationUnknown none).
    public static func message(for status: Int32) -> String {
        messages[status] ?? secureTransportMessages[status] ?? "OSStatus \(status)"
    }

    /// Whether ``message(for:)`` has Apple's message for `status`.
    public static func describes(_ status: Int32) -> Bool {
        messages[status] != nil || secureTransportMessages[status] != nil
    }
}
