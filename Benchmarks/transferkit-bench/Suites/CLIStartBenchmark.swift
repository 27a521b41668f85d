import Foundation
import TransferKitPlatform

/// Benchmark 6: the wall time of `transferkit types public.png`, against a hello-world Swift program linked two ways:
/// as SwiftPM links a program by default (dynamically; the issue's target), and as this build linked `transferkit`
/// (a report, like with like); then `transferkit --version`, which does nothing but start and print a line, against
/// the hello world linked as the tool is (issue 38: at most 1.5× when both are static, as released).
///
/// The second hello world is `Benchmarks/HelloWorld`, built beside `transferkit` by the same `swift build`, so the two
/// share their link: static when the benchmark was built with `--static-swift-stdlib`, as `Scripts/release.sh`
/// builds the released tool. The manifest sets no linker flag (SwiftPM refuses a versioned dependency whose products
/// carry unsafe flags), so the default, dynamic hello world cannot come from the same build: the benchmark compiles it
/// with the toolchain's `swiftc` and SwiftPM's default release flags (`-O`, `--gc-sections`).
enum CLIStartBenchmark {
    static let helloWorld = "transferkit-bench-hello"
    static let helloWorldSource = "print(\"Hello, world!\")\n"

    static func run(_ configuration: RunConfiguration) async -> [ResultRow] {
        let name = "cli: transferkit types public.png"
        do {
            let tool = try ProductsDirectory.executable("transferkit")
            let sameLinkHello = try ProductsDirectory.executable(helloWorld)
            let toolIsStatic = try !linksSwiftRuntimeDynamically(tool)
            let sameLink = toolIsStatic ? "static" : "dynamic"
            guard try linksSwiftRuntimeDynamically(sameLinkHello) != toolIsStatic else {
                throw BenchmarkError("\(tool) and \(sameLinkHello) are linked differently: build them in one run")
            }
            let directory = try TemporaryDirectory()
            let defaultHello = try await compileDefaultHelloWorld(in: directory)
            let arguments = ["types", "public.png"]
            try checkOutput(tool, arguments, contains: "public.png")
            try checkOutput(tool, ["--version"], contains: "transferkit")
            try checkOutput(defaultHello, [], contains: "Hello")
            try checkOutput(sameLinkHello, [], contains: "Hello")

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
                baseline: { try timed(defaultHello, []) })
            let sameLinkSamples = try await PairedRunner.alternate(
                pairs: configuration.processPairs, project: { try timed(tool, arguments) },
                baseline: { try timed(sameLinkHello, []) })
            let versionSamples = try await PairedRunner.alternate(
                pairs: configuration.processPairs, project: { try timed(tool, ["--version"]) },
                baseline: { try timed(sameLinkHello, []) })
            let linking =
                toolIsStatic
                ? "transferkit links the Swift runtime and FoundationEssentials statically here, as Scripts/release.sh builds it."
                : "transferkit links the Swift runtime dynamically here: build with `--static-swift-stdlib`, as "
                    + "Scripts/release.sh does, to time the tool as released."
            return [
                ResultRow(
                    name, unit: "ms", project: Summary(lowerIsBetter: samples.project), baselineName: "hello world",
                    baseline: Summary(lowerIsBetter: samples.baseline), ratio: samples.medianCostRatio,
                    ratioMeaning: "time", target: .ratioAtMost(2),
                    note: "posix_spawn to waitpid, output to /dev/null; the baseline is a hello world (print only, no "
                        + "Foundation) linked as SwiftPM links a release program by default (dynamically), compiled "
                        + "by the benchmark with swiftc -O. " + linking),
                ResultRow(
                    name + " vs " + sameLink, unit: "ms", project: Summary(lowerIsBetter: sameLinkSamples.project),
                    baselineName: sameLink + " hello world", baseline: Summary(lowerIsBetter: sameLinkSamples.baseline),
                    ratio: sameLinkSamples.medianCostRatio, ratioMeaning: "time",
                    note: "As above, against Benchmarks/HelloWorld from the same build, linked as transferkit is. A "
                        + "report: what is left is transferkit's own start (its catalogue, type metadata, page faults)."
                ),
                ResultRow(
                    "cli: transferkit --version vs " + sameLink, unit: "ms",
                    project: Summary(lowerIsBetter: versionSamples.project), baselineName: sameLink + " hello world",
                    baseline: Summary(lowerIsBetter: versionSamples.baseline), ratio: versionSamples.medianCostRatio,
                    ratioMeaning: "time", target: toolIsStatic ? .ratioAtMost(1.5) : nil,
                    note: "The start alone: `--version` prints one line and touches no catalogue, against the same "
                        + "hello world. What is left is the size of the binary (page faults, relocations) and the "
                        + "runtime's start. The target (issue 38) holds for the static build only; a dynamic one is a "
                        + "report."),
            ]
        } catch {
            return [ResultRow(name, status: .error, target: "≤ 2.00×", note: "\(error)")]
        }
    }

    /// Whether the program at `path` loads the Swift runtime as a shared library: its dynamic section names
    /// `libswiftCore.so`, which a program linked with `-static-stdlib` does not.
    static func linksSwiftRuntimeDynamically(_ path: String) throws -> Bool {
        do {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
            return bytes.range(of: Data("libswiftCore.so".utf8)) != nil
        } catch {
            throw BenchmarkError("cannot read \(path): \(error)")
        }
    }

    /// Compiles the hello world as SwiftPM's default release build links a program (dynamically, dead code
    /// stripped), with the `swiftc` on the `PATH` (the toolchain's, under `swift run`).
    static func compileDefaultHelloWorld(in directory: TemporaryDirectory) async throws -> String {
        let source = directory.path + "/main.swift"
        let program = directory.path + "/hello"
        do {
            try Data(helloWorldSource.utf8).write(to: URL(fileURLWithPath: source))
        } catch {
            throw BenchmarkError("cannot write \(source): \(error)")
        }
        let result = try await ChildProcess.run(
            "/usr/bin/env", arguments: ["swiftc", "-O", "-Xlinker", "--gc-sections", "-o", program, source])
        guard result.status == 0 else {
            throw BenchmarkError("swiftc could not compile the default hello world: \(result.errorText)")
        }
        return program
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
