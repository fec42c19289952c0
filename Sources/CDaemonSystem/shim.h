#ifndef KEYCHAIN_CDAEMONSYSTEM_SHIM_H
#define KEYCHAIN_CDAEMONSYSTEM_SHIM_H
// What keychaind asks of libsystemd: socket activation and readiness notification. The kernel's own calls
// (peer credentials, pidfds, capabilities, accept4) are SystemCalls'.
#include <systemd/sd-daemon.h>

/// SD_LISTEN_FDS_START, named for Swift.
static inline int kdaemon_listen_fds_start(void) { return SD_LISTEN_FDS_START; }
#endif
