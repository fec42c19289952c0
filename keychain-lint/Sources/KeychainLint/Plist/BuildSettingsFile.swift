/// The `NAME = value;` build settings of an Xcode project file, with their lines.
///
/// project.pbxproj is an old-style property list; only build settings matter to the rules, and they are one
/// assignment per line in every file Xcode writes.
package struct BuildSettingsFile: Sendable {
    package struct Setting: Sendable {
        package var name: String
        package var value: String
        package var position: SourcePosition
    }

    package var settings: [Setting] = []

    package init(text: String) {
        var lineNumber = 0
        var offset = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            defer { offset += line.utf8.count + 1 }
            guard let equals = line.firstIndex(of: "="), line.hasSuffix(";") else { continue }
            let name = line[..<equals].trimmingCharacters(in: [" ", "\t", "\""])
            guard let first = name.first, first.isUppercase || first == "_",
                name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
            else { continue }
            let value = line[line.index(after: equals)...].dropLast().trimmingCharacters(in: [" ", "\t", "\""])
            let indent = line.prefix { $0 == " " || $0 == "\t" }.utf8.count
            settings.append(
                Setting(
                    name: name, value: value,
                    position: SourcePosition(line: lineNumber, column: indent + 1, offset: offset + indent)))
        }
    }
}

extension Substring {
    func trimmingCharacters(in set: Set<Character>) -> String { String(self).trimmingCharacters(in: set) }
}
