import Foundation

/// Finds the files to scan under the paths given on the command line.
struct FileDiscovery {
    var configuration: Configuration

    /// - Throws: `ConfigurationError` when a path does not exist.
    func files(under paths: [String]) throws -> [String] {
        var result: [String] = []
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw ConfigurationError("no such file or directory: \(path)")
            }
            guard isDirectory.boolValue else {
                result.append(path)
                continue
            }
            let root = path.hasSuffix("/") ? String(path.dropLast()) : path
            guard let enumerator = manager.enumerator(atPath: root) else { continue }
            while let relative = enumerator.nextObject() as? String {
                guard ScannedFileKind(path: relative) != nil, !configuration.isExcluded(relative) else { continue }
                let full = root + "/" + relative
                var isFolder: ObjCBool = false
                if manager.fileExists(atPath: full, isDirectory: &isFolder), !isFolder.boolValue {
                    result.append(full)
                }
            }
        }
        return result.sorted()
    }
}
