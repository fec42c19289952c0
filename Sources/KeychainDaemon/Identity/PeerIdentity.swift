import KeychainWire

/// Who is at the other end of a connection, as the kernel tells it: never what the client says about itself.
package struct PeerIdentity: Hashable, Sendable {
    package let uid: UInt32
    package let gid: UInt32
    package let pid: Int32
    /// The unit of the system service manager the process runs in (`api.service`), from its cgroup. Units of a
    /// user's own service manager (under `user@UID.service`) are not identities: any user can name one anything.
    package let systemdUnit: String?
    /// The Flatpak application id (`[Application] name` of `/.flatpak-info` in the process's root).
    package let flatpakAppID: String?
    /// The LSM label of the process (`/proc/<pid>/attr/current`), e.g. `snap.app.cmd (enforce)`; nil when unconfined.
    package let securityLabel: String?
    /// The executable's path as the kernel reports it (`/proc/<pid>/exe`).
    package let executablePath: String?
    /// SHA-256 of the executable's bytes, read through `/proc/<pid>/exe` (the file the process runs, even if the
    /// path now names another).
    package let executableSHA256: [UInt8]?
    /// The device and inode of the running executable, to compare with the file at ``executablePath``.
    package let executableFile: FileIdentity?
    /// Which of the loader's injection variables (`LD_PRELOAD`, `LD_LIBRARY_PATH`, `LD_AUDIT`) the process's
    /// environment carries.
    package let loaderVariables: [String]
    /// `kernel.yama.ptrace_scope` (nil without Yama): 0 lets any process of a user trace the others.
    package let ptraceScope: Int?
    /// Whether the kernel itself bound the process to the connection (`SO_PEERPIDFD`); else the daemon opened a
    /// pidfd right after accepting and checked the process started before the connection was accepted.
    package let pidBoundAtConnect: Bool
    /// Whether the process is in keychaind's own user namespace. In one of its own (any user may make one, with
    /// mounts of its own), a process can make any path name any file and have the loader preload any library
    /// (its own `/etc/ld.so.preload`), so its executable's path and bytes say nothing of the code that runs.
    package let sharesDaemonsUserNamespace: Bool
    /// The files the process runs code from (``ProcessFacts/codeFiles(maps:)``), its executable among them; nil
    /// when its map could not be read whole, or was not read (then no `Executable` rule applies). A path named by
    /// an `Executable` rule vouches for the program only if the libraries it loaded are as closed to others as the
    /// rule needs.
    package let codeFiles: [String]?

    package init(
        uid: UInt32, gid: UInt32, pid: Int32, systemdUnit: String? = nil, flatpakAppID: String? = nil,
        securityLabel: String? = nil, executablePath: String? = nil, executableSHA256: [UInt8]? = nil,
        executableFile: FileIdentity? = nil, loaderVariables: [String] = [], ptraceScope: Int? = nil,
        pidBoundAtConnect: Bool = false, sharesDaemonsUserNamespace: Bool = true, codeFiles: [String]? = nil
    ) {
        self.uid = uid
        self.gid = gid
        self.pid = pid
        self.systemdUnit = systemdUnit
        self.flatpakAppID = flatpakAppID
        self.securityLabel = securityLabel
        self.executablePath = executablePath
        self.executableSHA256 = executableSHA256
        self.executableFile = executableFile
        self.loaderVariables = loaderVariables
        self.ptraceScope = ptraceScope
        self.pidBoundAtConnect = pidBoundAtConnect
        self.sharesDaemonsUserNamespace = sharesDaemonsUserNamespace
        self.codeFiles = codeFiles
    }

    /// The snap the process belongs to, from an AppArmor label `snap.NAME.COMMAND`.
    package var snapName: String? {
        guard let label = securityLabel, label.hasPrefix("snap.") else { return nil }
        return label.split(separator: ".").dropFirst().first.map(String.init)
    }

    /// The SHA-256 as lowercase hexadecimal.
    package var executableSHA256Hex: String? { executableSHA256.map(hexadecimal) }

    /// The identity as named fields, for `identify` and the log (nothing in it is secret).
    package var fields: FieldList {
        var list = FieldList([("uid", String(uid)), ("gid", String(gid)), ("pid", String(pid))])
        if let systemdUnit { list.append("unit", systemdUnit) }
        if let flatpakAppID { list.append("flatpak", flatpakAppID) }
        if let securityLabel { list.append("label", securityLabel) }
        if let executablePath { list.append("exe", executablePath) }
        if let hex = executableSHA256Hex { list.append("sha256", hex) }
        if !loaderVariables.isEmpty { list.append("loader-variables", loaderVariables.joined(separator: ",")) }
        if let ptraceScope { list.append("ptrace-scope", String(ptraceScope)) }
        list.append("pid-bound", pidBoundAtConnect ? "kernel" : "pidfd")
        list.append("user-namespace", sharesDaemonsUserNamespace ? "keychaind's" : "its own")
        return list
    }
}

/// A file's device and inode: the same pair is the same file.
package struct FileIdentity: Hashable, Sendable {
    package let device: UInt64
    package let inode: UInt64

    package init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }
}

func hexadecimal(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(bytes.count * 2)
    for byte in bytes {
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
}
