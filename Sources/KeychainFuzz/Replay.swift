#if !FUZZING
    import Foundation

    /// Without libFuzzer (a normal build), the program runs saved inputs through a target, so that a corpus or a
    /// crash file can be replayed under a debugger, and writes the seed inputs that need the project's own
    /// encoders:
    ///
    ///     KeychainFuzz list
    ///     KeychainFuzz run TARGET FILE-OR-DIRECTORY...
    ///     KeychainFuzz seeds DIRECTORY        (writes DIRECTORY/<target>/seed-*)
    @main
    struct Replay {
        static func main() {
            let arguments = Array(CommandLine.arguments.dropFirst())
            switch arguments.first {
            case "list":
                for target in FuzzTarget.all { print("\(target.name)\t\(target.summary)") }
            case "run" where arguments.count >= 3:
                guard let target = FuzzTarget.named(arguments[1]) else { usage("unknown target \(arguments[1])") }
                var count = 0
                for path in arguments.dropFirst(2) {
                    for file in files(at: path) {
                        guard let data = FileManager.default.contents(atPath: file) else {
                            usage("cannot read \(file)")
                        }
                        target.run(Array(data))
                        count += 1
                    }
                }
                print("\(target.name): \(count) inputs ran without a finding")
            case "seeds" where arguments.count == 2:
                SeedCorpus.write(to: URL(fileURLWithPath: arguments[1], isDirectory: true))
            default:
                usage("usage: KeychainFuzz list | run TARGET FILE-OR-DIRECTORY... | seeds DIRECTORY")
            }
        }

        private static func files(at path: String) -> [String] {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                return [path]
            }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            return names.sorted().map { path + "/" + $0 }
        }

        private static func usage(_ message: String) -> Never {
            FileHandle.standardError.write(Data((message + "\n").utf8))
            exit(64)
        }
    }
#endif
