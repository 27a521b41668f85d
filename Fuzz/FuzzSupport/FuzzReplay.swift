public import Foundation

/// The `main` of a fuzzer in an ordinary build, where libFuzzer is not linked: runs the checks on every file
/// named on the command line (folders are read one level deep), so a corpus or a reproducer replays without
/// sanitizers, e.g. `swift run ArchiveCBORFuzzer Fuzz/ArchiveCBORFuzzer/corpus`.
public enum FuzzReplay {
    /// Replays the inputs named on the command line through `check`, then exits the process: with status 0 when
    /// every input ran, 2 for a usage or I/O problem. A broken invariant traps before that.
    ///
    /// It returns `Void` rather than `Never` so that `main.swift` can call it from a global's initializer.
    /// - Parameter check: The fuzzer's checks.
    public static func run(check: (Data) -> Void) {
        exit(replay(arguments: Array(CommandLine.arguments.dropFirst()), check: check))
    }

    private static func replay(arguments: [String], check: (Data) -> Void) -> Int32 {
        guard !arguments.isEmpty else {
            printError("usage: \(CommandLine.arguments.first ?? "fuzzer") FILE-OR-FOLDER…")
            return 2
        }
        var count = 0
        for path in arguments {
            let url = URL(fileURLWithPath: path)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                printError("\(path): no such file or folder")
                return 2
            }
            var files = [url]
            if isFolder.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                files = names.sorted().map { url.appendingPathComponent($0) }
            }
            for file in files {
                guard let data = try? Data(contentsOf: file) else {
                    printError("\(file.path): cannot read")
                    return 2
                }
                check(data)
                count += 1
            }
        }
        print("Replayed \(count) inputs.")
        return 0
    }

    private static func printError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
