import Foundation

/// Splits scanned files into projects, so that paths from several repositories given in one run are analysed
/// apart: one repository's Info.plist cannot silence another's findings, and its classes cannot lend their
/// methods to another's calls.
///
/// A file's project is the outermost directory above it that holds a project marker (`*.xcodeproj`,
/// `*.xcworkspace`, `Package.swift`, `Podfile`...), looking no higher than the repository that contains the file
/// (the nearest directory with `.git`). Without a marker the repository is the project; without either, the
/// directory given on the command line.
struct ProjectRoots {
    private static let markerNames: Set<String> = [
        "Package.swift", "Podfile", "Cartfile", "project.yml", "Project.swift", "Workspace.swift",
    ]
    private static let markerExtensions = [".xcodeproj", ".xcworkspace"]

    private var markers: [String: Bool] = [:]
    private var repositories: [String: Bool] = [:]
    private let currentDirectory = FileManager.default.currentDirectoryPath

    /// Groups `files` by project, keeping their order; `fallback` names the project of files without a root.
    mutating func group(_ files: [String], fallback: (String) -> String) -> [[String]] {
        var order: [String] = []
        var groups: [String: [String]] = [:]
        for file in files {
            let key = root(of: file) ?? "given:" + fallback(file)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(file)
        }
        return order.map { groups[$0]! }
    }

    /// The project directory of one file, or nil when no marker or repository is found above it.
    mutating func root(of file: String) -> String? {
        let absolute = file.hasPrefix("/") ? file : currentDirectory + "/" + file
        var directory = (absolute as NSString).standardizingPath
        var outermost: String?
        var repository: String?
        while true {
            directory = (directory as NSString).deletingLastPathComponent
            if hasMarker(directory) { outermost = directory }
            if isRepository(directory) {
                repository = directory
                break
            }
            if directory == "/" || directory.isEmpty { break }
        }
        return outermost ?? repository
    }

    private mutating func hasMarker(_ directory: String) -> Bool {
        if let known = markers[directory] { return known }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let found = names.contains { name in
            Self.markerNames.contains(name) || Self.markerExtensions.contains { name.hasSuffix($0) }
        }
        markers[directory] = found
        return found
    }

    private mutating func isRepository(_ directory: String) -> Bool {
        if let known = repositories[directory] { return known }
        let found = FileManager.default.fileExists(atPath: directory + "/.git")
        repositories[directory] = found
        return found
    }
}
