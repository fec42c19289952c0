/// What the kernel says about the daemon's locked memory.
enum LockedMemory {
    /// `VmLck` of `/proc/self/status`, in kB: the memory `mlock` keeps out of swap (the unlocked class keys).
    static func lockedKilobytes() -> Int? {
        guard let status = ProcFile.text("/proc/self/status") else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmLck:") {
            return Int(line.dropFirst("VmLck:".count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }
}
