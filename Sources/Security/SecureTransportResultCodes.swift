// The SecureTransport result codes of SecBase.h, with Apple's values, so that TLS code that names them compiles
// unchanged. The keychain itself returns only errSSLCrypto: the legacy SecKey functions (`SecKeyRawVerify`)
// answer it for a signature that does not verify. `SecCopyErrorMessageString` gives Apple's text for each
// (`SecurityStatus.secureTransportMessages`).

// Failures found on this side of the connection.
public let errSSLProtocol: OSStatus = -9800
public let errSSLNegotiation: OSStatus = -9801
public let errSSLFatalAlert: OSStatus = -9802
public let errSSLWouldBlock: OSStatus = -9803
public let errSSLSessionNotFound: OSStatus = -9804
public let errSSLClosedGraceful: OSStatus = -9805
public let errSSLClosedAbort: OSStatus = -9806
public let errSSLXCertChainInvalid: OSStatus = -9807
public let errSSLBadCert: OSStatus = -9808
public let errSSLCrypto: OSStatus = -9809
public let errSSLInternal: OSStatus = -9810
public let errSSLModuleAttach: OSStatus = -9811
public let errSSLUnknownRootCert: OSStatus = -9812
public let errSSLNoRootCert: OSStatus = -9813
public let errSSLCertExpired: OSStatus = -9814
public let errSSLCertNotYetValid: OSStatus = -9815
public let errSSLClosedNoNotify: OSStatus = -9816
public let errSSLBufferOverflow: OSStatus = -9817
public let errSSLBadCipherSuite: OSStatus = -9818

// Fatal alerts the peer sent.
public let errSSLPeerUnexpectedMsg: OSStatus = -9819
public let errSSLPeerBadRecordMac: OSStatus = -9820
public let errSSLPeerDecryptionFail: OSStatus = -9821
public let errSSLPeerRecordOverflow: OSStatus = -9822
public let errSSLPeerDecompressFail: OSStatus = -9823
public let errSSLPeerHandshakeFail: OSStatus = -9824
public let errSSLPeerBadCert: OSStatus = -9825
public let errSSLPeerUnsupportedCert: OSStatus = -9826
public let errSSLPeerCertRevoked: OSStatus = -9827
public let errSSLPeerCertExpired: OSStatus = -9828
public let errSSLPeerCertUnknown: OSStatus = -9829
public let errSSLIllegalParam: OSStatus = -9830
public let errSSLPeerUnknownCA: OSStatus = -9831
public let errSSLPeerAccessDenied: OSStatus = -9832
public let errSSLPeerDecodeError: OSStatus = -9833
public let errSSLPeerDecryptError: OSStatus = -9834
public let errSSLPeerExportRestriction: OSStatus = -9835
public let errSSLPeerProtocolVersion: OSStatus = -9836
public let errSSLPeerInsufficientSecurity: OSStatus = -9837
public let errSSLPeerInternalError: OSStatus = -9838
public let errSSLPeerUserCancelled: OSStatus = -9839
public let errSSLPeerNoRenegotiation: OSStatus = -9840

// Not failures: the handshake stops so that the app can decide.
public let errSSLPeerAuthCompleted: OSStatus = -9841
public let errSSLClientCertRequested: OSStatus = -9842

// More failures found on this side.
public let errSSLHostNameMismatch: OSStatus = -9843
public let errSSLConnectionRefused: OSStatus = -9844
public let errSSLDecryptionFail: OSStatus = -9845
public let errSSLBadRecordMac: OSStatus = -9846
public let errSSLRecordOverflow: OSStatus = -9847
public let errSSLBadConfiguration: OSStatus = -9848
public let errSSLUnexpectedRecord: OSStatus = -9849
public let errSSLWeakPeerEphemeralDHKey: OSStatus = -9850

// Not a failure: a ClientHello with a server name arrived.
public let errSSLClientHelloReceived: OSStatus = -9851

// The transport or the configuration failed.
public let errSSLTransportReset: OSStatus = -9852
public let errSSLNetworkTimeout: OSStatus = -9853
public let errSSLConfigurationFailed: OSStatus = -9854

// Alerts of later TLS versions.
public let errSSLUnsupportedExtension: OSStatus = -9855
public let errSSLUnexpectedMessage: OSStatus = -9856
public let errSSLDecompressFail: OSStatus = -9857
public let errSSLHandshakeFail: OSStatus = -9858
public let errSSLDecodeError: OSStatus = -9859
public let errSSLInappropriateFallback: OSStatus = -9860
public let errSSLMissingExtension: OSStatus = -9861
public let errSSLBadCertificateStatusResponse: OSStatus = -9862
public let errSSLCertificateRequired: OSStatus = -9863
public let errSSLUnknownPSKIdentity: OSStatus = -9864
public let errSSLUnrecognizedName: OSStatus = -9865

// App Transport Security refused the connection.
public let errSSLATSViolation: OSStatus = -9880
public let errSSLATSMinimumVersionViolation: OSStatus = -9881
public let errSSLATSCiphersuiteViolation: OSStatus = -9882
public let errSSLATSMinimumKeySizeViolation: OSStatus = -9883
public let errSSLATSLeafCertificateHashAlgorithmViolation: OSStatus = -9884
public let errSSLATSCertificateHashAlgorithmViolation: OSStatus = -9885
public let errSSLATSCertificateTrustViolation: OSStatus = -9886

// TLS 1.3 early data.
public let errSSLEarlyDataRejected: OSStatus = -9890
