// The C-level constants of Apple's `LAPublicDefines.h`, as Swift imports them (`Int32` numbers, the domain a
// string), for code that writes `Int(kLAErrorUserCancel)` or compares an `NSError`'s code with them. The typed
// names (`LAError.Code`, `LAPolicy`, …) have the same values.

public let kLAPolicyDeviceOwnerAuthenticationWithBiometrics: Int32 = 1
public let kLAPolicyDeviceOwnerAuthentication: Int32 = 2
public let kLAPolicyDeviceOwnerAuthenticationWithWatch: Int32 = 3
public let kLAPolicyDeviceOwnerAuthenticationWithBiometricsOrWatch: Int32 = 4
public let kLAPolicyDeviceOwnerAuthenticationWithWristDetection: Int32 = 5
public let kLAPolicyDeviceOwnerAuthenticationWithCompanion: Int32 = 3
public let kLAPolicyDeviceOwnerAuthenticationWithBiometricsOrCompanion: Int32 = 4

public let kLAOptionUserFallback: Int32 = 1
public let kLAOptionAuthenticationReason: Int32 = 2

public let kLACredentialTypePasscode: Int32 = -1
public let kLACredentialTypePassphrase: Int32 = -2
public let kLACredentialCTKPIN: Int32 = -3
public let kLACredentialSmartCardPIN: Int32 = -3
public let kLACredentialTypeApplicationPassword: Int32 = 0

public let kLAErrorAuthenticationFailed: Int32 = -1
public let kLAErrorUserCancel: Int32 = -2
public let kLAErrorUserFallback: Int32 = -3
public let kLAErrorSystemCancel: Int32 = -4
public let kLAErrorPasscodeNotSet: Int32 = -5
public let kLAErrorTouchIDNotAvailable: Int32 = -6
public let kLAErrorTouchIDNotEnrolled: Int32 = -7
public let kLAErrorTouchIDLockout: Int32 = -8
public let kLAErrorAppCancel: Int32 = -9
public let kLAErrorInvalidContext: Int32 = -10
public let kLAErrorWatchNotAvailable: Int32 = -11
public let kLAErrorCompanionNotAvailable: Int32 = -11
public let kLAErrorBiometryNotPaired: Int32 = -12
public let kLAErrorBiometryDisconnected: Int32 = -13
public let kLAErrorInvalidDimensions: Int32 = -14
public let kLAErrorNotInteractive: Int32 = -1004
public let kLAErrorBiometryNotAvailable: Int32 = -6
public let kLAErrorBiometryNotEnrolled: Int32 = -7
public let kLAErrorBiometryLockout: Int32 = -8
public let kLAErrorDomain = "com.apple.LocalAuthentication"

public let kLABiometryTypeNone: Int32 = 0
public let kLABiometryTypeTouchID: Int32 = 1
public let kLABiometryTypeFaceID: Int32 = 2
public let kLABiometryTypeOpticID: Int32 = 4

public let kLACompanionTypeNone: Int32 = 0
public let kLACompanionTypeWatch: Int32 = 1
public let kLACompanionTypeMac: Int32 = 2
public let kLACompanionTypeVision: Int32 = 4

public let kLAAccessControlOperationCreateItem: Int32 = 0
public let kLAAccessControlOperationUseItem: Int32 = 1
public let kLAAccessControlOperationCreateKey: Int32 = 2
public let kLAAccessControlOperationUseKeySign: Int32 = 3
public let kLAAccessControlOperationUseKeyDecrypt: Int32 = 4
public let kLAAccessControlOperationUseKeyKeyExchange: Int32 = 5
