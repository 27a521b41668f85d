import Foundation
import TransferKitPlatform

/// `transferkit-bench [--quick] [--json OUT]`: TransferKit against baselines measured in the same run.
@main
enum BenchmarkProgram {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == StreamProviderBenchmark.childFlag {
            Syscall.exitProcess(await StreamProviderBenchmark.child(Array(arguments.dropFirst())))
        }
        if arguments.first == SpliceCopy.childFlag {
            Syscall.exitProcess(SpliceCopy.child(Array(arguments.dropFirst())))
        }
        if arguments.first == SessionMoveBenchmark.childFlag {
            Syscall.exitProcess(await SessionMoveBenchmark.child(Array(arguments.dropFirst())))
        }
        if arguments.first == CBORValueMemoryBenchmark.childFlag {
            Syscall.exitProcess(CBORValueMemoryBenchmark.child(Array(arguments.dropFirst())))
        }
        let options: Options
        do {
            options = try Options(arguments: Array(CommandLine.arguments.dropFirst()))
        } catch {
            printError("transferkit-bench: \(error)\n\n\(Options.usage)")
            Syscall.exitProcess(2)
        }
        if options.showHelp {
            print(Options.usage)
            return
        }
        let status = await run(options)
        Syscall.exitProcess(status)
    }

    /// Runs every benchmark, prints the table, writes the JSON report; returns the exit status.
    static func run(_ options: Options) async -> Int32 {
        let configuration: RunConfiguration = options.quick ? .quick : .full
        // Read the old report first, so a wrong path fails before minutes of measuring.
        var previous: Report?
        if let path = options.comparePath {
            do {
                previous = try Comparison.load(path)
            } catch {
                printError("transferkit-bench: \(error)")
                return 2
            }
        }
        let started = MonotonicClock.now()
        let date = ISO8601DateFormatter().string(from: Date())
        var loads = [0.0, 0.0, 0.0]
        let loadAverage = getloadavg(&loads, 3) > 0 ? loads[0] : nil
        print(
            "transferkit-bench\(options.quick ? " --quick" : ""): \(ProcessInfo.processInfo.activeProcessorCount) "
                + "processors, load average \(loadAverage.map(Format.number) ?? "unknown")")
        #if DEBUG
            print("warning: this is a debug build; the figures mean nothing. Use `swift run -c release`.")
        #endif

        let suites: [(String, @Sendable (RunConfiguration) async -> [ResultRow])] = [
            ("provider", ProviderBenchmark.run),
            ("stream", StreamingBenchmark.run),
            ("items", SmallItemsBenchmark.run),
            ("types", TypeSystemBenchmark.run),
            ("progress", ProgressBenchmark.run),
            ("cli", CLIStartBenchmark.run),
            ("scale", CatalogScaleBenchmark.run),
            ("coder", CoderBenchmark.run),
            ("clipboard", ClipboardBenchmark.run),
            ("imaging", ImagingBenchmark.run),
            ("convert", ConverterBenchmark.run),
            ("sessions", SessionMoveBenchmark.run),
            ("remote", RemoteClipboardBenchmark.run),
        ]
        let unknown = options.only.filter { name in !suites.contains { $0.0 == name } }
        guard unknown.isEmpty else {
            printError(
                "transferkit-bench: unknown suite '\(unknown[0])'; the suites are "
                    + suites.map(\.0).joined(separator: ", "))
            return 2
        }
        var rows: [ResultRow] = []
        for (name, suite) in suites where options.only.isEmpty || options.only.contains(name) {
            let suiteStart = MonotonicClock.now()
            let suiteRows = await suite(configuration)
            rows += suiteRows
            let seconds = MonotonicClock.elapsed(since: suiteStart) / 1e9
            print("  \(name): \(suiteRows.count) rows in \(Format.number(seconds)) s")
        }
        let report = Report(
            date: date, quick: options.quick, processors: ProcessInfo.processInfo.activeProcessorCount,
            loadAverageAtStart: loadAverage, durationSeconds: MonotonicClock.elapsed(since: started) / 1e9,
            rows: rows)
        print("")
        print(report.table())
        print("")
        print("ran in \(Format.number(report.durationSeconds)) s")

        if let previous {
            print("")
            print(Comparison(old: previous, new: report).table())
        }

        var status: Int32 = rows.contains { $0.status == .error } ? 1 : 0
        if let path = options.jsonPath {
            do {
                try report.json().write(to: URL(fileURLWithPath: path))
                print("wrote \(path)")
            } catch {
                printError("transferkit-bench: cannot write \(path): \(error)")
                status = 1
            }
        }
        return status
    }

    static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
