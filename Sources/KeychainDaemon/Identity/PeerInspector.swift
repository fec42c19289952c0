import DaemonSystem
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// Learns who a connected peer is from `/proc`, and makes sure what it read was about that peer: the process is
/// held by a pidfd, must have started before the connection was accepted, and must still be running after the
/// reading (else its pid could have been given to another process in between).
package struct PeerInspector: Sendable {
    /// Why a peer could not be identified.
    package struct Failure: Error, CustomStringConvertible, Sendable {
        package let description: String
        /// The daemon was too busy to identify it now: another try later may succeed.
        package var isBusy = false
    }

    private static let environmentLimit = 4 << 20
    /// A map longer than this (tens of thousands of mappings) is not read, and vouches for no library.
    private static let mapsLimit = 4 << 20
    /// Reads executables for their SHA-256, in turns shared with `security apps show`.
    package let digester: ExecutableDigester
    private let procRoot: String
    /// keychaind's own user namespace (`/proc/self/ns/user`), read once.
    private let ownUserNamespace: String?

    package init(digester: ExecutableDigester = ExecutableDigester(), procRoot: String = "/proc") {
        self.digester = digester
        self.procRoot = procRoot
        self.ownUserNamespace = ProcFile.link("\(procRoot)/self/ns/user")
    }

    /// The identity of the peer with `credentials`, held by `process`, whose connection was accepted at
    /// `acceptedAt` (seconds since boot).
    package func inspect(
        _ credentials: PeerCredentials, process: ProcessHandle, acceptedAt: Double
    ) throws(Failure) -> PeerIdentity {
        let directory = "\(procRoot)/\(credentials.pid)"
        // First: whatever is read below is of the program running now, or the image shows it changed.
        guard let image = ProcessImage(directory: directory, limit: Self.environmentLimit) else {
            throw Failure(
                description: "the environment of process \(credentials.pid) cannot be read"
                    + oneUserDaemonHint(peerUID: credentials.uid))
        }
        if !process.isBoundAtConnect {
            guard let stat = ProcFile.text("\(directory)/stat"), let ticks = ProcessFacts.startTime(stat: stat) else {
                throw Failure(description: "process \(credentials.pid) is gone")
            }
            // A tick of slack: the start time is rounded to clock ticks.
            let started = Double(ticks) / ProcFile.ticksPerSecond
            guard started <= acceptedAt + 1 / ProcFile.ticksPerSecond else {
                throw Failure(description: "pid \(credentials.pid) names a process started after the connection")
            }
        }
        let cgroup = ProcFile.text("\(directory)/cgroup") ?? ""
        let flatpak = ProcFile.regularFile(".flatpak-info", in: "\(directory)/root")
            .flatMap { ProcessFacts.flatpakAppID(info: String(decoding: $0, as: UTF8.self)) }
        let label = (ProcFile.read("\(directory)/attr/apparmor/current") ?? ProcFile.read("\(directory)/attr/current"))
            .flatMap(ProcessFacts.securityLabel(attribute:))
        let path = ProcFile.link("\(directory)/exe")
        let executable: ExecutableDigester.Digest?
        do {
            executable = try digester.digest(ofExecutableAt: "\(directory)/exe", uid: credentials.uid)
        } catch {
            if case .busy = error { throw Failure(description: error.description, isBusy: true) }
            throw Failure(description: "process \(credentials.pid): \(error)")
        }
        let environ = image.environment
        // A variable past what was read would go unseen: an environment padded beyond the limit is refused.
        guard environ.isWhole else {
            throw Failure(description: "the environment of process \(credentials.pid) is over 4 MiB, too long to check")
        }
        // Read before the checks below, like the rest: the map of the program that connected.
        let maps = ProcFile.readWhole("\(directory)/maps", limit: Self.mapsLimit)
        let codeFiles = maps.flatMap {
            $0.isWhole ? ProcessFacts.codeFiles(maps: String(decoding: $0.bytes, as: UTF8.self)) : nil
        }
        let scope = ProcFile.text("\(procRoot)/sys/kernel/yama/ptrace_scope").flatMap(ProcessFacts.integer)
        // Unreadable counts as another namespace: the link needs the same access as `environ`, read above.
        let userNamespace = ProcFile.link("\(directory)/ns/user")
        guard !process.hasExited else {
            throw Failure(description: "process \(credentials.pid) exited while it was identified")
        }
        // An exec in the middle would make a program's path and hash and another's environment one identity: the
        // environment read first must still be the process's, and the file it runs the one that was hashed.
        // The path was read before the file was hashed: it must still name the file running now.
        let running = try? SystemCalls.stat("\(directory)/exe")
        guard image.isCurrent, ProcFile.link("\(directory)/exe") == path,
            executable.map({ running?.device == $0.file.device && running?.inode == $0.file.inode }) ?? true
        else {
            throw Failure(description: "process \(credentials.pid) ran another program while it was identified")
        }
        return PeerIdentity(
            uid: credentials.uid, gid: credentials.gid, pid: credentials.pid,
            systemdUnit: ProcessFacts.systemdUnit(cgroup: cgroup), flatpakAppID: flatpak, securityLabel: label,
            executablePath: path, executableSHA256: executable?.sha256, executableFile: executable?.file,
            loaderVariables: ProcessFacts.loaderVariables(environ: environ.bytes), ptraceScope: scope,
            pidBoundAtConnect: process.isBoundAtConnect,
            sharesDaemonsUserNamespace: userNamespace != nil && userNamespace == ownUserNamespace,
            codeFiles: codeFiles)
    }

    /// Why a daemon that is not root and lacks `CAP_DAC_READ_SEARCH` (it was started as a user, not as root) could
    /// not read the environment of another uid's process, and what to do; empty otherwise.
    private func oneUserDaemonHint(peerUID: UInt32) -> String {
        let own = geteuid()
        guard own != 0, peerUID != own,
            !ProcessFacts.hasEffectiveCapability(
                Int(Privileges.readSearchCapability), status: ProcFile.text("\(procRoot)/self/status") ?? "")
        else { return "" }
        return ": keychaind runs as uid \(own) without the capability to read other users' processes, so it can "
            + "identify only processes of its own uid (started as root, it keeps the two capabilities it needs when it "
            + "becomes its own account)"
    }
}
