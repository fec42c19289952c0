import Foundation

/// Finds the files to scan under the paths given on the command line.
struct FileDiscovery {
    var configuration: Configuration

    /// The files found and how many test sources were left out by their folder.
    struct Result {
        var files: [String]
        /// Files named on the command line: read even when they look like tests.
        var explicitFiles: Set<String>
        var skippedTestFiles: Int
    }

    /// - Throws: `ConfigurationError` when a path does not exist.
    func files(under paths: [String]) throws -> [String] {
        try discover(paths).files
    }

    /// - Throws: `ConfigurationError` when a path does not exist.
    func discover(_ paths: [String]) throws -> Result {
        var result = Result(files: [], explicitFiles: [], skippedTestFiles: 0)
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw ConfigurationError("no such file or directory: \(path)")
            }
            guard isDirectory.boolValue else {
                result.files.append(path)
                result.explicitFiles.insert(path)
                continue
            }
            let root = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
            guard let enumerator = manager.enumerator(atPath: root) else { continue }
            while let relative = enumerator.nextObject() as? String {
                guard ScannedFileKind(path: relative) != nil, !configuration.isExcluded(relative) else { continue }
                let full = root + "/" + relative
                var isFolder: ObjCBool = false
                guard manager.fileExists(atPath: full, isDirectory: &isFolder), !isFolder.boolValue else { continue }
                if configuration.excludeTests, TestSources.isInTestDirectory(relative) {
                    result.skippedTestFiles += 1
                    continue
                }
                result.files.append(full)
            }
        }
        result.files.sort()
        return result
    }
}
