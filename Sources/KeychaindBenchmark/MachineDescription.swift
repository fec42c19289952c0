import Foundation

/// One line describing the machine the figures come from: processor, cores, memory, kernel, file system, date.
enum MachineDescription {
    static func current(directory: String) -> String {
        let cpuinfo = ProcText.read("/proc/cpuinfo")
        let model =
            cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" }
            ?? "unknown processor"
        let memory = ProcessInfo.processInfo.physicalMemory / (1 << 20)
        let kernel = ProcText.read("/proc/sys/kernel/osrelease").trimmingCharacters(in: .whitespacesAndNewlines)
        let mounts = ProcText.read("/proc/mounts")
        // The mount holding `directory`: the longest mount point above it.
        var mount: [String]?
        for line in mounts.split(separator: "\n") {
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count > 2 else { continue }
            let point = fields[1] == "/" ? "/" : fields[1] + "/"
            if (directory + "/").hasPrefix(point), fields[1].count >= (mount?[1].count ?? 0) { mount = fields }
        }
        let disk = mount.map { "\($0[2]) on \($0[0])" } ?? "unknown file system"
        let date = ISO8601DateFormatter().string(from: Date())
        return "\(model), \(ProcessInfo.processInfo.activeProcessorCount) cores, \(memory) MiB, Linux \(kernel), "
            + "\(disk) at \(directory), \(date)"
    }
}
