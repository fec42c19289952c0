import Foundation
import KeychainMessages
import Security
import Testing

/// The SecureTransport result codes of SecBase.h: TLS code compares a connection's error with them, and
/// `SecCopyErrorMessageString` gives Apple's text for each (SecBase.h's comments, which Apple turns into its
/// messages), in Japanese when the locale asks for it.
@Suite struct SecureTransportResultCodesTests {
    static let all: [OSStatus] = [
        errSSLProtocol, errSSLNegotiation, errSSLFatalAlert, errSSLWouldBlock, errSSLSessionNotFound,
        errSSLClosedGraceful, errSSLClosedAbort, errSSLXCertChainInvalid, errSSLBadCert, errSSLCrypto,
        errSSLInternal, errSSLModuleAttach, errSSLUnknownRootCert, errSSLNoRootCert, errSSLCertExpired,
        errSSLCertNotYetValid, errSSLClosedNoNotify, errSSLBufferOverflow, errSSLBadCipherSuite,
        errSSLPeerUnexpectedMsg, errSSLPeerBadRecordMac, errSSLPeerDecryptionFail, errSSLPeerRecordOverflow,
        errSSLPeerDecompressFail, errSSLPeerHandshakeFail, errSSLPeerBadCert, errSSLPeerUnsupportedCert,
        errSSLPeerCertRevoked, errSSLPeerCertExpired, errSSLPeerCertUnknown, errSSLIllegalParam,
        errSSLPeerUnknownCA, errSSLPeerAccessDenied, errSSLPeerDecodeError, errSSLPeerDecryptError,
        errSSLPeerExportRestriction, errSSLPeerProtocolVersion, errSSLPeerInsufficientSecurity,
        errSSLPeerInternalError, errSSLPeerUserCancelled, errSSLPeerNoRenegotiation, errSSLPeerAuthCompleted,
        errSSLClientCertRequested, errSSLHostNameMismatch, errSSLConnectionRefused, errSSLDecryptionFail,
        errSSLBadRecordMac, errSSLRecordOverflow, errSSLBadConfiguration, errSSLUnexpectedRecord,
        errSSLWeakPeerEphemeralDHKey, errSSLClientHelloReceived, errSSLTransportReset, errSSLNetworkTimeout,
        errSSLConfigurationFailed, errSSLUnsupportedExtension, errSSLUnexpectedMessage, errSSLDecompressFail,
        errSSLHandshakeFail, errSSLDecodeError, errSSLInappropriateFallback, errSSLMissingExtension,
        errSSLBadCertificateStatusResponse, errSSLCertificateRequired, errSSLUnknownPSKIdentity,
        errSSLUnrecognizedName, errSSLATSViolation, errSSLATSMinimumVersionViolation,
        errSSLATSCiphersuiteViolation, errSSLATSMinimumKeySizeViolation,
        errSSLATSLeafCertificateHashAlgorithmViolation, errSSLATSCertificateHashAlgorithmViolation,
        errSSLATSCertificateTrustViolation, errSSLEarlyDataRejected,
    ]

    @Test func everyCodeHasApplesValue() {
        #expect(Self.all.count == 74 && Set(Self.all).count == 74)
        #expect(errSSLProtocol == -9800)
        #expect(errSSLCrypto == -9809)
        #expect(errSSLBadCipherSuite == -9818)
        #expect(errSSLPeerUnexpectedMsg == -9819)
        #expect(errSSLPeerAuthCompleted == -9841)
        #expect(errSSLClientHelloReceived == -9851)
        #expect(errSSLUnrecognizedName == -9865)
        #expect(errSSLATSViolation == -9880)
        #expect(errSSLATSCertificateTrustViolation == -9886)
        #expect(errSSLEarlyDataRejected == -9890)
        #expect(Self.all.allSatisfy { (-9890 ... -9800).contains($0) })
    }

    @Test func everyCodeHasApplesTextInEachLanguage() {
        for status in Self.all {
            let english = SecurityStatusText.message(for: status, in: .english)
            #expect(!english.contains("OSStatus"), "\(status)")
            #expect(SecurityStatusText.message(for: status, in: .japanese) != english, "\(status)")
        }
        #expect(SecurityStatusText.message(for: errSSLProtocol, in: .english) == "SSL protocol error")
        #expect(SecurityStatusText.message(for: errSSLClosedGraceful, in: .english) == "connection closed gracefully")
        #expect(SecurityStatusText.message(for: errSSLCrypto, in: .english) == "underlying cryptographic error")
        #expect(
            SecurityStatusText.message(for: errSSLEarlyDataRejected, in: .english)
                == "Early application data rejected by peer")
        #expect(SecurityStatusText.message(for: errSSLPeerCertExpired, in: .japanese) == "証明書の有効期限が切れています。")
        let current = SecurityStatusText.message(for: errSSLXCertChainInvalid, in: .current)
        #expect(SecCopyErrorMessageString(errSSLXCertChainInvalid, nil) as String? == current)
    }
}
