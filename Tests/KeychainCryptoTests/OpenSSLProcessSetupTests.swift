import OpenSSLProcessSetup
import Testing

/// libcrypto is initialised before main without its exit-time cleanup, so that threads still using it while the
/// process exits do not take locks the cleanup freed.
struct OpenSSLProcessSetupTests {
    @Test func libcryptoWasSetUpBeforeMainWithoutItsExitCleanup() {
        #expect(keychain_openssl_setup_done() == 1)
    }
}
