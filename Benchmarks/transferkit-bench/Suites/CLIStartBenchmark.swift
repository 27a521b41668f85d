import Foundation
import TransferKitPlatform

/// Benchmark 6: the wall time of `transferkit types public.png`, against a hello-world Swift binary built by the
/// same `swift build -c release`: once as SwiftPM links a program by default (dynamically; the issue's target), once
/// linked as a release `transferkit` is (statically; a report).
enum CLIStartBenchmark {
    static let helloWorld = "transferkit-bench-hello"
    static let staticHelloWorld = "transferkit-bench-hello-static"

    static func run(_ configuration: RunConfiguration) async -> [ResultRow] {
        let name = "cli: transferkit types public.png"
        let staticName = "cli: transferkit types public.png vs static"
        do {
            let tool = try ProductsDirectory.executable("transferkit")
            let hello = try ProductsDirectory.executable(helloWorld)
            let staticHello = try ProductsDirectory.executable(staticHelloWorld)
            let arguments = ["types", "public.png"]
            try checkOutput(tool, arguments, contains: "public.png")
            try checkOutput(hello, [], contains: "Hello")
            try checkOutput(staticHello, [], contains: "Hello")

            let devNull = try Spawn.openFile("/dev/null", writing: true)
            defer { Syscall.close(devNull) }
            func timed(_ executable: String, _ arguments: [String]) throws -> Double {
                let (nanoseconds, exit) = try Spawn.run(executable, arguments, output: devNull)
                guard exit == 0 else {
                    throw BenchmarkError("\(executable) \(arguments.joined(separator: " ")) exited with \(exit)")
                }
                return nanoseconds / 1e6
            }
            let samples = try await PairedRunner.alternate(
                pairs: configuration.processPairs, project: { try timed(tool, arguments) },
                baseline: { try timed(hello, []) })
            let staticSamples = try await PairedRunner.alternate(
                pairs: configuration.processPairs, project: { try timed(tool, arguments) },
                baseline: { try timed(staticHello, []) })
            return [
                ResultRow(
                    name, unit: "ms", project: Summary(lowerIsBetter: samples.project), baselineName: "hello world",
                    baseline: Summary(lowerIsBetter: samples.baseline), ratio: samples.medianCostRatio,
                    ratioMeaning: "time", target: .ratioAtMost(2),
                    note: "posix_spawn to waitpid, output to /dev/null; the baseline is Benchmarks/HelloWorld "
                        + "(print only, no Foundation), as `swift build -c release` links it by default (dynamically)."),
                ResultRow(
                    staticName, unit: "ms", project: Summary(lowerIsBetter: staticSamples.project),
                    baselineName: "static hello world", baseline: Summary(lowerIsBetter: staticSamples.baseline),
                    ratio: staticSamples.medianCostRatio, ratioMeaning: "time",
                    note: "As above, against Benchmarks/HelloWorldStatic: the same program linked as transferkit is "
                        + "(the Swift runtime statically), which starts about 1.4 ms sooner. A "
                        + "report: what is left is transferkit's own start (its catalogue, type metadata, page faults)."
                ),
            ]
        } catch {
            return [ResultRow(name, status: .error, target: "≤ 2.00×", note: "\(error)")]
        }
    }

    /// Runs the program once and checks that it succeeds and prints `expected`.
    private static func checkOutput(_ executable: String, _ arguments: [String], contains expected: String) throws {
        let directory = try TemporaryDirectory()
        let outputPath = directory.path + "/output.txt"
        let output = try Spawn.openFile(outputPath, writing: true)
        let (_, exit) = try Spawn.run(executable, arguments, output: output)
        Syscall.close(output)
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard exit == 0, text.contains(expected) else {
            throw BenchmarkError(
                "\(executable) \(arguments.joined(separator: " ")) exited with \(exit) and printed: \(text)")
        }
    }
}
