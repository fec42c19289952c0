#ifndef KEYCHAIN_CSYSTEMCALLS_SHIM_H
#define KEYCHAIN_CSYSTEMCALLS_SHIM_H
// The Linux calls SystemCalls makes that Swift's Glibc module does not show: variadic ones (syscall, prctl) and
// those glibc declares only under _GNU_SOURCE (accept4, struct ucred), which would make these headers disagree
// with Swift's Glibc module, so the kernel's layouts and the raw system calls are used. Header only: nothing to
// link, so the statically linked faces that use SystemCalls gain no library.
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/vfs.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77
#endif

/// SO_PEERCRED of a connected Unix socket: 0, or -1 with errno.
static inline int ksys_peer_credentials(int fd, uint32_t *uid, uint32_t *gid, int32_t *pid) {
    struct { pid_t pid; uid_t uid; gid_t gid; } credentials;  // struct ucred, the kernel's layout
    socklen_t length = sizeof(credentials);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *uid = credentials.uid;
    *gid = credentials.gid;
    *pid = credentials.pid;
    return 0;
}

/// SO_PEERPIDFD (Linux 6.5): a pidfd the kernel took for the peer at connect time; -1 with errno without it.
static inline int ksys_peer_pidfd(int fd) {
    int pidfd = -1;
    socklen_t length = sizeof(pidfd);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERPIDFD, &pidfd, &length) != 0) return -1;
    return pidfd;
}

#ifndef SCM_CREDENTIALS
#define SCM_CREDENTIALS 2
#endif
#ifndef MSG_CMSG_CLOEXEC
#define MSG_CMSG_CLOEXEC 0x40000000
#endif

/// SO_PASSCRED on: the kernel then stamps what each process sends on the socket (and on those it accepts) with
/// that process's credentials, read by ksys_receive_with_sender.
static inline int ksys_pass_credentials(int fd) {
    int on = 1;
    return setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &on, sizeof(on));
}

/// recvmsg(2) into `buffer` with `flags`: the count (or -1 with errno), and in *known whether the bytes came with
/// the sender's credentials (SCM_CREDENTIALS: the kernel's, never the sender's word), then its pid in *pid.
/// The kernel never joins bytes of two senders in one read. Descriptors a peer sends find no room and are closed.
static inline long ksys_receive_with_sender(int fd, void *buffer, size_t length, int flags, int *known,
                                            int32_t *pid) {
    struct { pid_t pid; uid_t uid; gid_t gid; } credentials;  // struct ucred, the kernel's layout
    union { struct cmsghdr header; char space[CMSG_SPACE(sizeof(credentials))]; } control;
    struct iovec vector = { buffer, length };
    struct msghdr message = { 0 };
    message.msg_iov = &vector;
    message.msg_iovlen = 1;
    message.msg_control = control.space;
    message.msg_controllen = sizeof(control.space);
    *known = 0;
    long count = recvmsg(fd, &message, flags | MSG_CMSG_CLOEXEC);
    if (count < 0) return count;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level == SOL_SOCKET && header->cmsg_type == SCM_CREDENTIALS &&
            header->cmsg_len == CMSG_LEN(sizeof(credentials))) {
            memcpy(&credentials, CMSG_DATA(header), sizeof(credentials));
            *known = 1;
            *pid = credentials.pid;
        }
    }
    return count;
}

/// getauxval(AT_SECURE): nonzero when the program runs in secure execution (set-user-ID, set-group-ID, or file
/// capabilities).
static inline int ksys_is_secure_execution(void) {
    return getauxval(AT_SECURE) != 0;
}

/// FIONREAD of a socket: the bytes received and not yet read (a stream socket's whole queue), or -1 with errno.
static inline int ksys_queued_bytes(int fd) {
    int count = 0;
    if (ioctl(fd, FIONREAD, &count) != 0) return -1;
    return count;
}

/// The inode of the other end of the Unix socket of inode `inode`, asked of the kernel's socket diagnostics
/// (sock_diag(7): UNIX_DIAG with UDIAG_SHOW_PEER), which know only this process's network namespace: the peer's
/// inode, 0 when it has none, or -1 with errno (ENOENT: no socket of that inode in this namespace).
static inline int64_t ksys_unix_peer_inode(uint32_t inode) {
    int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
    if (fd < 0) return -1;
    struct {
        struct nlmsghdr header;
        struct unix_diag_req request;
    } message = {
        .header = {.nlmsg_len = sizeof message, .nlmsg_type = SOCK_DIAG_BY_FAMILY, .nlmsg_flags = NLM_F_REQUEST},
        .request = {.sdiag_family = AF_UNIX, .udiag_ino = inode, .udiag_show = UDIAG_SHOW_PEER,
                    .udiag_cookie = {~0u, ~0u}},
    };
    struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};
    long answer[1024];
    ssize_t length = -1;
    if (sendto(fd, &message, sizeof message, 0, (struct sockaddr *)&kernel, sizeof kernel) == sizeof message) {
        do length = recv(fd, answer, sizeof answer, 0); while (length < 0 && errno == EINTR);
    }
    int saved = errno;
    close(fd);
    errno = saved;
    if (length < 0) return -1;
    struct nlmsghdr *reply = (struct nlmsghdr *)answer;
    if (!NLMSG_OK(reply, (size_t)length)) return errno = EPROTO, -1;
    if (reply->nlmsg_type == NLMSG_ERROR) {
        int error = ((struct nlmsgerr *)NLMSG_DATA(reply))->error;
        return errno = error < 0 ? -error : EPROTO, -1;
    }
    struct unix_diag_msg *diag = NLMSG_DATA(reply);
    if (reply->nlmsg_type != SOCK_DIAG_BY_FAMILY || reply->nlmsg_len < NLMSG_LENGTH(sizeof *diag) ||
        diag->udiag_ino != inode)
        return errno = EPROTO, -1;
    int rest = (int)(reply->nlmsg_len - NLMSG_LENGTH(sizeof *diag));
    for (struct rtattr *attribute = (struct rtattr *)(diag + 1); RTA_OK(attribute, rest);
         attribute = RTA_NEXT(attribute, rest)) {
        if (attribute->rta_type == UNIX_DIAG_PEER && RTA_PAYLOAD(attribute) >= sizeof(uint32_t)) {
            uint32_t peer;
            memcpy(&peer, RTA_DATA(attribute), sizeof peer);
            return peer;
        }
    }
    return 0;
}

/// fstatfs(2)'s file system type of the file open as `fd`, or -1 with errno.
static inline long ksys_file_system_type(int fd) {
    struct statfs system;
    if (fstatfs(fd, &system) != 0) return -1;
    return (long)system.f_type;
}

/// Whether the file at `path` has a POSIX access control list: 1, 0, or -1 with errno (other than ENODATA).
static inline int ksys_has_access_list(const char *path) {
    if (getxattr(path, "system.posix_acl_access", NULL, 0) >= 0) return 1;
    return errno == ENODATA ? 0 : -1;
}

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

/// openat2(2) of `path` below the directory `dirfd` with `flags`, following no link of any kind and never leaving
/// the directory (RESOLVE_NO_MAGICLINKS | RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH): a descriptor, or -1 with errno
/// (ENOSYS before Linux 5.6; ELOOP at a link; EXDEV on the way out).
static inline int ksys_open_beneath_without_links(int dirfd, const char *path, int flags) {
    struct { uint64_t flags; uint64_t mode; uint64_t resolve; } how = { (uint64_t)(unsigned)flags, 0, 0x02 | 0x04 | 0x08 };
    return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
}

/// pidfd_open(2), with PIDFD's flags 0 (the descriptor is close-on-exec).
static inline int ksys_pidfd_open(int32_t pid) { return (int)syscall(SYS_pidfd_open, (pid_t)pid, 0); }

#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

/// pidfd_getfd(2): a duplicate, close-on-exec, of the descriptor `fd` of the process `pidfd` names, or -1 with
/// errno (EPERM without ptrace's attach access to it; EBADF when it has no such descriptor; ENOSYS before 5.6).
static inline int ksys_pidfd_getfd(int pidfd, int fd) { return (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0); }

/// The address of the socket `fd` (`peer` 0: getsockname(2)) or of its peer (getpeername(2)), copied to `buffer`
/// (at most `size` bytes): its length, or -1 with errno.
static inline int ksys_socket_address(int fd, int peer, void *buffer, uint32_t size) {
    struct sockaddr_storage address;
    socklen_t length = sizeof address;
    int result = peer ? getpeername(fd, (struct sockaddr *)&address, &length)
                      : getsockname(fd, (struct sockaddr *)&address, &length);
    if (result != 0) return -1;
    if (length > sizeof address) length = sizeof address;
    if (length > size) length = size;
    memcpy(buffer, &address, length);
    return (int)length;
}

/// accept4(2) with SOCK_CLOEXEC.
static inline int ksys_accept_cloexec(int fd) { return (int)syscall(SYS_accept4, fd, NULL, NULL, SOCK_CLOEXEC); }

/// prctl(PR_SET_KEEPCAPS, keep): whether the permitted capabilities survive a setuid from root.
static inline int ksys_keep_capabilities(int keep) { return prctl(PR_SET_KEEPCAPS, keep, 0, 0, 0); }

/// prctl(PR_SET_DUMPABLE, dumpable): whether the process leaves a core file and may be traced, or its memory read
/// through /proc, by processes of its uid.
static inline int ksys_set_dumpable(int dumpable) { return prctl(PR_SET_DUMPABLE, dumpable, 0, 0, 0); }

/// prctl(PR_GET_DUMPABLE): 1 when dumpable, 0 when not, 2 for core files root alone may read.
static inline int ksys_dumpable(void) { return prctl(PR_GET_DUMPABLE, 0, 0, 0, 0); }

/// capset(2) of this thread: exactly the capabilities whose bits `mask` sets (bit n = capability n), effective
/// and permitted, none inheritable.
static inline int ksys_set_capabilities(uint64_t mask) {
    struct __user_cap_header_struct header = { _LINUX_CAPABILITY_VERSION_3, 0 };
    struct __user_cap_data_struct data[2] = { { 0, 0, 0 }, { 0, 0, 0 } };
    data[0].effective = data[0].permitted = (uint32_t)mask;
    data[1].effective = data[1].permitted = (uint32_t)(mask >> 32);
    return (int)syscall(SYS_capset, &header, data);
}
#endif
