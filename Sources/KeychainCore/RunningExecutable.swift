import Foundation
import SystemCalls

/// The file this process runs, found through `/proc/self/exe`: not through `argv[0]`, which for a command run
/// through `PATH` is a bare name and would point at the current directory.
package enum RunningExecutable {
    /// The directory of the executable file; nil when `/proc` cannot say.
    package static var directory: URL? {
        guard let path = try? SystemCalls.readLink("/proc/self/exe") else { return nil }
        return URL(fileURLWithPath: path).deletingLastPathComponent()
    }
}
