import KeychainCore

// The status codes of SecBase.h that certificates and trust evaluation report, with Apple's values; their
// messages are in the one table, `SecurityStatus`.

public let errSecCreateChainFailed: OSStatus = SecurityStatus.createChainFailed
public let errSecHostNameMismatch: OSStatus = SecurityStatus.hostNameMismatch
public let errSecUnknownCriticalExtensionFlag: OSStatus = SecurityStatus.unknownCriticalExtensionFlag
public let errSecNoBasicConstraints: OSStatus = SecurityStatus.noBasicConstraints
public let errSecNoBasicConstraintsCA: OSStatus = SecurityStatus.noBasicConstraintsCA
public let errSecInvalidKeyUsageForPolicy: OSStatus = SecurityStatus.invalidKeyUsageForPolicy
public let errSecInvalidExtendedKeyUsage: OSStatus = SecurityStatus.invalidExtendedKeyUsage
public let errSecPathLengthConstraintExceeded: OSStatus = SecurityStatus.pathLengthConstraintExceeded
public let errSecCertificateExpired: OSStatus = SecurityStatus.certificateExpired
public let errSecCertificateNotValidYet: OSStatus = SecurityStatus.certificateNotValidYet
