// Linux-PAM's application interface (Debian: libpam0g-dev), for the keychain-authenticate helper only.
#include <security/pam_appl.h>
