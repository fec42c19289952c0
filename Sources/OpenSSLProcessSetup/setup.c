#include <openssl/crypto.h>
#include "OpenSSLProcessSetup.h"

/*
 * OpenSSL frees its locks and tables in an atexit handler unless told otherwise. A Swift process exits while
 * other threads may still be inside libcrypto (a keychain's timer, a daemon connection, a test's last task),
 * and those threads then take freed locks and crash at exit. Initialising libcrypto before main with
 * OPENSSL_INIT_NO_ATEXIT keeps everything alive until the process is gone; the memory goes with it.
 */
static int setup_done;

__attribute__((constructor)) static void keychain_openssl_setup(void) {
    setup_done = OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, NULL);
}

int keychain_openssl_setup_done(void) { return setup_done; }
