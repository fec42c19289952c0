/// Readers of the `/proc` files the daemon asks about a process: pure functions over the files' bytes, so that
/// each rule is tested apart from a running process.
package enum ProcessFacts {
    /// The system service manager's unit of a process, from `/proc/<pid>/cgroup`: the first component below the
    /// slices of the unified (`0::`) hierarchy, else of the v1 `name=systemd` one, when it is a `.service` or a
    /// `.scope`. What lies deeper belongs to the unit (a unit with delegation names its own sub-groups as it likes,
    /// `api.service` included), and a user's own service manager (`user@UID.service`) names units as it likes:
    /// neither is an identity. Nil outside a unit.
    package static func systemdUnit(cgroup: String) -> String? {
        let lines = cgroup.split(separator: "\n")
        let path =
            lines.first { $0.hasPrefix("0::") }.map { String($0.dropFirst(3)) }
            ?? lines.first { $0.contains(":name=systemd:") }.flatMap { line in
                line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).last.map(String.init)
            }
        guard let path,
            let unit = path.split(separator: "/").first(where: { !$0.hasSuffix(".slice") }).map(String.init),
            unit.hasSuffix(".service") || unit.hasSuffix(".scope"), !unit.hasPrefix("user@")
        else { return nil }
        return unit
    }

    /// The `name` of the `[Application]` group of a `.flatpak-info` key file.
    package static func flatpakAppID(info: String) -> String? {
        var group = ""
        for rawLine in info.split(separator: "\n") {
            let line = rawLine.trimming(" \t\r")
            if line.hasPrefix("[") && line.hasSuffix("]") {
                group = String(line.dropFirst().dropLast())
            } else if group == "Application", let equals = line.firstIndex(of: "=") {
                let key = line[..<equals].trimming(" \t")
                let value = line[line.index(after: equals)...].trimming(" \t")
                if key == "name" && !value.isEmpty { return value }
            }
        }
        return nil
    }

    /// The LSM label of `/proc/<pid>/attr/current` without its trailing NUL and newline; nil when unconfined.
    package static func securityLabel(attribute: [UInt8]) -> String? {
        let text = String(decoding: attribute.prefix { $0 != 0 }, as: UTF8.self).trimming(" \n")
        return text.isEmpty || text == "unconfined" ? nil : text
    }

    /// Which variables that load code of the environment's choosing into the process are set, non-empty, in a
    /// NUL-separated `/proc/<pid>/environ`: the loader's (`LD_PRELOAD`, `LD_LIBRARY_PATH`, `LD_AUDIT`), OpenSSL's
    /// (`OPENSSL_CONF` names a configuration that loads providers and engines, `OPENSSL_MODULES` and
    /// `OPENSSL_ENGINES` where they are found; every client links libcrypto) and glibc's `GCONV_PATH` (character
    /// set converters, loaded by `iconv`).
    package static func loaderVariables(environ: [UInt8]) -> [String] {
        let watched = [
            "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "OPENSSL_CONF", "OPENSSL_MODULES", "OPENSSL_ENGINES",
            "GCONV_PATH",
        ]
        var found: [String] = []
        for entry in environ.split(separator: 0) {
            guard let equals = entry.firstIndex(of: UInt8(ascii: "=")), equals < entry.endIndex - 1 else { continue }
            let name = String(decoding: entry[..<equals], as: UTF8.self)
            if watched.contains(name) && !found.contains(name) { found.append(name) }
        }
        return found
    }

    /// The files a process runs code from, by `/proc/<pid>/maps`: the paths of its executable file mappings, each
    /// once, in the order of the map. The kernel's own mappings (`[vdso]`) and anonymous ones are left out; a
    /// file deleted since it was mapped keeps the kernel's ` (deleted)` after its path.
    package static func codeFiles(maps: String) -> [String] {
        var files: [String] = []
        var seen = Set<String>()
        for line in maps.split(separator: "\n") {
            // address perms offset dev inode path: the path is the rest after five fields (it may hold spaces).
            var rest = line[...]
            var fields: [Substring] = []
            while fields.count < 5 {
                rest = rest.drop { $0 == " " }
                guard let end = rest.firstIndex(of: " ") else {
                    fields.append(rest)
                    rest = ""
                    break
                }
                fields.append(rest[..<end])
                rest = rest[end...]
            }
            let path = String(rest.drop { $0 == " " })
            guard fields.count == 5, fields[1].contains("x"), path.hasPrefix("/"), seen.insert(path).inserted else {
                continue
            }
            files.append(path)
        }
        return files
    }

    /// The start time of a process in clock ticks since boot: field 22 of `/proc/<pid>/stat`, counted after the
    /// command name's closing parenthesis (the name itself may hold spaces and parentheses).
    package static func startTime(stat: String) -> UInt64? {
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After ")" come field 3 (state) onwards, so field 22 is at offset 19.
        guard fields.count > 19 else { return nil }
        return UInt64(fields[19])
    }

    /// Whether capability `number` (of `capability.h`: `CAP_DAC_READ_SEARCH` is 2) is in the `CapEff` line of a
    /// `/proc/<pid>/status`.
    package static func hasEffectiveCapability(_ number: Int, status: String) -> Bool {
        guard (0..<64).contains(number),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("CapEff:") }),
            let mask = UInt64(line.dropFirst("CapEff:".count).trimming(" \t"), radix: 16)
        else { return false }
        return mask & (1 << UInt64(number)) != 0
    }

    /// A `/proc/sys` integer such as `kernel.yama.ptrace_scope`.
    package static func integer(_ text: String) -> Int? {
        Int(text.trimming(" \n"))
    }
}

extension StringProtocol {
    func trimming(_ set: String) -> String {
        let characters = Set(set)
        let trimmedFront = drop { characters.contains($0) }
        return String(trimmedFront.reversed().drop { characters.contains($0) }.reversed())
    }
}
