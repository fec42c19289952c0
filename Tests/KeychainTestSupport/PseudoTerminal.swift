import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A pseudo-terminal pair's master end and the slave's device path, for tests that play a person at a terminal.
package enum PseudoTerminal {
    /// Opens `/dev/ptmx` by hand (posix_openpt and friends are not imported): Linux's TIOCSPTLCK unlocks the pair
    /// and TIOCGPTN gives its number, the same requests on x86_64 and arm64.
    /// - Throws: `POSIXError(.ENXIO)` when no pair can be had.
    package static func open() throws -> (master: Int32, path: String) {
        let master = Glibc.open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
            if master >= 0 { close(master) }
            throw POSIXError(.ENXIO)
        }
        return (master, "/dev/pts/\(number)")
    }
}
