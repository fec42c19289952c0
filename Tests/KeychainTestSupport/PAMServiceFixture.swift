import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A PAM service directory for tests: service `keychain-test` accepts exactly `password`, checked by a script
/// that `pam_exec` gives the typed password on standard input.
package struct PAMServiceFixture {
    package static let service = "keychain-test"
    package let directory: URL

    package init(password: String) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pam-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let check = directory.appendingPathComponent("check-password")
        try "#!/bin/sh\nread -r typed\n[ \"$typed\" = '\(password)' ]\n".write(
            to: check, atomically: true, encoding: .utf8)
        chmod(check.path, 0o700)
        // As Debian's common-auth: success skips the deny; anything else falls through to it.
        let stack = """
            auth [success=1 default=ignore] pam_exec.so expose_authtok quiet \(check.path)
            auth requisite pam_deny.so
            auth required pam_permit.so
            account required pam_permit.so

            """
        try stack.write(to: directory.appendingPathComponent(Self.service), atomically: true, encoding: .utf8)
    }

    package func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
