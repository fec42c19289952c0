/// The one result code of SecureTransport.h that a keychain function returns: the legacy SecKey functions
/// (`SecKeyRawVerify`) answer it for a signature that does not verify.
public let errSSLCrypto: OSStatus = -9809
