#ifndef KEYCHAIN_CDAEMONSYSTEM_SHIM_H
#define KEYCHAIN_CDAEMONSYSTEM_SHIM_H
// What keychaind asks of Linux and systemd that Swift's Glibc module does not show: peer credentials and
// accept4 (glibc declares them only under _GNU_SOURCE, which would make these headers disagree with Swift's
// Glibc module, so the kernel's layout and the raw system call are used), pidfds, capabilities kept across
// setuid, and libsystemd's socket activation and readiness notification.
#include <errno.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>
#include <linux/capability.h>
#include <systemd/sd-daemon.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77
#endif

/// SO_PEERCRED of a connected Unix socket: 0, or -1 with errno.
static inline int kdaemon_peer_credentials(int fd, uint32_t *uid, uint32_t *gid, int32_t *pid) {
    struct { pid_t pid; uid_t uid; gid_t gid; } credentials;  // struct ucred, the kernel's layout
    socklen_t length = sizeof(credentials);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *uid = credentials.uid;
    *gid = credentials.gid;
    *pid = credentials.pid;
    return 0;
}

/// A pidfd for the process that connected (SO_PEERPIDFD, Linux 6.5), taken by the kernel at connect time, so it
/// can never name a recycled pid; -1 with errno when the kernel does not offer it.
static inline int kdaemon_peer_pidfd(int fd) {
    int pidfd = -1;
    socklen_t length = sizeof(pidfd);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERPIDFD, &pidfd, &length) != 0) return -1;
    return pidfd;
}

/// pidfd_open(2): a descriptor that keeps naming this process, and becomes readable when it exits.
static inline int kdaemon_pidfd_open(int32_t pid) { return (int)syscall(SYS_pidfd_open, (pid_t)pid, 0); }

/// Keeps CAP_SYS_PTRACE and CAP_DAC_READ_SEARCH across a setuid from root (another user's /proc/<pid>/exe and
/// root need ptrace read access, its environ, mode 0400, needs the second): call with `keep` = 1 before setuid,
/// then with `keep` = 0 after it to make the two effective again, and only them.
static inline int kdaemon_keep_inspection_capabilities(int keep) {
    if (keep) return prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0);
    struct __user_cap_header_struct header = { _LINUX_CAPABILITY_VERSION_3, 0 };
    struct __user_cap_data_struct data[2] = { { 0, 0, 0 }, { 0, 0, 0 } };
    data[CAP_TO_INDEX(CAP_SYS_PTRACE)].effective |= CAP_TO_MASK(CAP_SYS_PTRACE);
    data[CAP_TO_INDEX(CAP_SYS_PTRACE)].permitted |= CAP_TO_MASK(CAP_SYS_PTRACE);
    data[CAP_TO_INDEX(CAP_DAC_READ_SEARCH)].effective |= CAP_TO_MASK(CAP_DAC_READ_SEARCH);
    data[CAP_TO_INDEX(CAP_DAC_READ_SEARCH)].permitted |= CAP_TO_MASK(CAP_DAC_READ_SEARCH);
    if (syscall(SYS_capset, &header, data) != 0) return -1;
    return prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0);
}

/// accept4(2) with SOCK_CLOEXEC, so no connection leaks into a child the daemon starts.
static inline int kdaemon_accept(int fd) { return (int)syscall(SYS_accept4, fd, NULL, NULL, SOCK_CLOEXEC); }

/// SD_LISTEN_FDS_START, named for Swift.
static inline int kdaemon_listen_fds_start(void) { return SD_LISTEN_FDS_START; }
#endif
