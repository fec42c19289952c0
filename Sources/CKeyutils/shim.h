#ifndef KEYCHAIN_CKEYUTILS_SHIM_H
#define KEYCHAIN_CKEYUTILS_SHIM_H
#include <keyutils.h>

// KEY_SPEC_USER_KEYRING is a macro; name it for Swift.
static inline key_serial_t kkeyutils_user_keyring(void) { return KEY_SPEC_USER_KEYRING; }
#endif
