@_implementationOnly import CSystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The process's environment.
extension SystemCalls {
    /// The value of the environment variable `name`, or nil when it is unset, or when the process runs in secure
    /// execution (``isSecureExecution``): the environment of a set-user-ID program is its caller's to choose, and
    /// the keychain's variables name homes, sockets, helpers to run and devices to trust.
    package static func environmentValue(_ name: String) -> String? {
        guard !isSecureExecution else { return nil }
        return getenv(name).map { String(cString: $0) }
    }

    /// Whether the kernel started this program in secure execution (`AT_SECURE`, getauxval(3)): set-user-ID or
    /// set-group-ID, or with file capabilities, so that its caller may hold less privilege than it does. The
    /// dynamic loader and glibc's `secure_getenv` ignore the environment then for the same reason.
    package static var isSecureExecution: Bool { ksys_is_secure_execution() != 0 }
}

extension SystemCalls {
    /// The account name and home directory the user database gives `uid` (`getpwuid_r`); nil when it has no entry.
    package static func userEntry(uid: UInt32) -> (name: String, home: String)? {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16 * 1024)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &found) == 0, found != nil, let name = entry.pw_name
        else { return nil }
        return (String(cString: name), entry.pw_dir.map { String(cString: $0) } ?? "")
    }

    /// The home directory the user database gives the process's effective user: whose files the process may write
    /// as its own, whatever `HOME` says. Nil when the user has no entry or no home.
    package static var effectiveUserHome: String? {
        userEntry(uid: geteuid()).flatMap { $0.home.isEmpty ? nil : $0.home }
    }
}
