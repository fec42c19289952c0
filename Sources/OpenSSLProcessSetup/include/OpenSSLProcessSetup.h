#ifndef OPENSSL_PROCESS_SETUP_H
#define OPENSSL_PROCESS_SETUP_H

/// Whether OpenSSL was set up by this module's constructor (nonzero), for a test to check it ran.
int keychain_openssl_setup_done(void);

#endif
