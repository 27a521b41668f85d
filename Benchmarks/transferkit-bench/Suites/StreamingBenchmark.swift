import Foundation
import TransferKitPlatform

/// Benchmark 2: one large representation through `transferkit pack | transferkit extract -` on a pipe, against
/// `cat | cat` on the same kind of pipe and the same bytes, in both of pack's input forms (`pack - < FILE` and
/// `pack FILE -o -`); the peak RSS of each transferkit process; and a provider's stream representation written into
/// an archive by a child process, against the same chunks written raw.
enum StreamingBenchmark {
    static let type = "public.data"

    /// One run of a two-process pipeline: its wall time and each process's peak RSS in MiB.
    struct PipelineRun {
        var nanoseconds: Double
        /// Peak RSS in MiB, when GNU time is installed.
        var firstPeakMiB: Double?
        var secondPeakMiB: Double?
    }

    /// The peak RSS samples of one form's runs.
    struct Peaks {
        var pack: [Double] = []
        var extract: [Double] = []
        var cat: [Double] = []
    }

    static func run(_ configuration: RunConfiguration) async -> [ResultRow] {
        let name = "archive: pack - | extract vs splice"
        do {
            let tool = try ProductsDirectory.executable("transferkit")
            guard
                let cat = ["/bin/cat", "/usr/bin/cat"].first(where: { (path: String) in
                    FileManager.default.isExecutableFile(atPath: path)
                })
            else {
                throw BenchmarkError("cannot find cat in /bin or /usr/bin")
            }
            let directory = try TemporaryDirectory()
            let input = directory.path + "/input.bin"
            try TestFile.create(path: input, byteCount: configuration.streamingBytes)
            defer { unlink(input) }
            try checkRoundTrip(tool, input: input, directory: directory)

            let benchmark = try ProductsDirectory.executable("transferkit-bench")
            let splice = (benchmark, [SpliceCopy.childFlag])
            let reading = (benchmark, [SpliceCopy.childFlag, SpliceCopy.readFlag])
            let extract = (tool, ["extract", "-", "--type", type])
            let size = "\(configuration.streamingBytes >> 20) MiB"
            let cats =
                "cat < file | cat > /dev/null; pipes as the shell makes them (transferkit enlarges its own to 1 MiB "
                + "with F_SETPIPE_SZ; cat does not); wall time from the first spawn to the last reap."
            let splices =
                "transferkit-bench \(SpliceCopy.childFlag) < file | transferkit-bench \(SpliceCopy.childFlag) > "
                + "/dev/null, the honest anchor: each enlarges its pipes to 1 MiB as transferkit does and moves the "
                + "bytes with splice(2), 1 MiB a call (no copy through memory, no checksum); the three pipelines "
                + "take turns in a rotating order; wall time from the first spawn to the last reap."
            let readings =
                "transferkit-bench \(SpliceCopy.childFlag) < file | transferkit-bench \(SpliceCopy.childFlag) "
                + "\(SpliceCopy.readFlag) > /dev/null: the splice anchor whose reader reads the bytes into a reused "
                + "1 MiB buffer, the one copy any reader that checks or uses them pays. A report."
            var rows: [ResultRow] = []
            var peaks = Peaks()
            for (form, pack, shape) in [
                ("-", (tool, ["pack", "-", "--type", type]), "transferkit pack - --type \(type) < file"),
                ("FILE -o -", (tool, ["pack", input, "--type", type, "-o", "-"]), "transferkit pack file -o -"),
            ] {
                let samples = try await rotatedPipelines(
                    pack: pack, extract: extract, splice: splice, reading: reading, cat: cat, input: input,
                    directory: directory,
                    configuration: configuration, peaks: &peaks)
                rows.append(
                    throughputRow(
                        "archive: pack \(form) | extract vs splice", samples: samples.againstSplice,
                        baselineName: "splice | splice", target: .ratioAtLeast(0.8), configuration: configuration,
                        note: "\(size) of pseudo-random bytes from a file in the page cache: \(shape) | transferkit "
                            + "extract - --type \(type) > /dev/null, against \(splices)"))
                rows.append(
                    throughputRow(
                        "archive: pack \(form) | extract vs splice | read", samples: samples.againstReading,
                        baselineName: "splice | read", target: nil, configuration: configuration,
                        note: "The same runs of \(shape) against \(readings)"))
                rows.append(
                    throughputRow(
                        "archive: pack \(form) | extract throughput", samples: samples.againstCat,
                        baselineName: "cat | cat", target: nil, configuration: configuration,
                        note: "The same runs of \(shape) against \(cats) A report: the pipes differ in size."))
            }
            rows += memoryRows(peaks)
            rows += await StreamProviderBenchmark.run(configuration, cat: cat, directory: directory)
            return rows
        } catch {
            return [ResultRow(name, status: .error, target: "≥ 0.80×", note: "\(error)")]
        }
    }

    /// Runs `pack | extract`, `splice | splice`, `splice | read` and `cat | cat` in turn, each round in a rotated
    /// order so that none always runs first, and collects each process's peak RSS into `peaks`.
    /// - Returns: pack | extract against each baseline, sample by sample of the same rounds.
    private static func rotatedPipelines(
        pack: (String, [String]), extract: (String, [String]), splice: (String, [String]),
        reading: (String, [String]), cat: String, input: String, directory: TemporaryDirectory,
        configuration: RunConfiguration, peaks: inout Peaks
    ) async throws -> (againstSplice: PairedSamples, againstReading: PairedSamples, againstCat: PairedSamples) {
        var project: [Double] = []
        var spliced: [Double] = []
        var read: [Double] = []
        var catted: [Double] = []
        for round in 0..<configuration.streamingPairs {
            for turn in 0..<4 {
                switch (round + turn) % 4 {
                case 0:
                    let run = try pipeline(pack, extract, input: input, output: "/dev/null", directory: directory)
                    peaks.pack += [run.firstPeakMiB].compactMap { $0 }
                    peaks.extract += [run.secondPeakMiB].compactMap { $0 }
                    project.append(run.nanoseconds)
                case 1:
                    spliced.append(
                        try pipeline(splice, splice, input: input, output: "/dev/null", directory: directory)
                            .nanoseconds)
                case 2:
                    read.append(
                        try pipeline(splice, reading, input: input, output: "/dev/null", directory: directory)
                            .nanoseconds)
                default:
                    let run = try pipeline(
                        (cat, []), (cat, []), input: input, output: "/dev/null", directory: directory)
                    peaks.cat += [run.firstPeakMiB, run.secondPeakMiB].compactMap { $0 }
                    catted.append(run.nanoseconds)
                }
            }
        }
        return (
            PairedSamples(project: project, baseline: spliced), PairedSamples(project: project, baseline: read),
            PairedSamples(project: project, baseline: catted)
        )
    }

    private static func throughputRow(
        _ name: String, samples: PairedSamples, baselineName: String, target: Target?,
        configuration: RunConfiguration, note: String
    ) -> ResultRow {
        let bytes = Double(configuration.streamingBytes)
        let throughput = { (nanoseconds: Double) in bytes / nanoseconds * 1e3 }
        return ResultRow(
            name, unit: "MB/s", project: Summary(lowerIsBetter: samples.project).mapped(throughput),
            baselineName: baselineName, baseline: Summary(lowerIsBetter: samples.baseline).mapped(throughput),
            ratio: samples.medianRateRatio, ratioMeaning: "throughput", target: target, note: note)
    }

    private static func memoryRows(_ peaks: Peaks) -> [ResultRow] {
        guard !peaks.pack.isEmpty, !peaks.extract.isEmpty else {
            let note =
                "\(PeakMemory.tool) is missing; it measures each process's peak RSS. Install it: apt-get install -y time"
            return [
                ResultRow("archive: peak RSS of pack", status: .unavailable, target: "worst ≤ 64 MiB", note: note),
                ResultRow("archive: peak RSS of extract", status: .unavailable, target: "worst ≤ 64 MiB", note: note),
            ]
        }
        return [
            ResultRow(
                "archive: peak RSS of pack", unit: "MiB", project: Summary(lowerIsBetter: peaks.pack),
                baselineName: "cat (either)", baseline: Summary(lowerIsBetter: peaks.cat), target: .worstAtMost(64),
                note: "Peak RSS of each process in the runs of both forms above, from /usr/bin/time -f %M around each "
                    + "one (both sides get the wrapper). Not wait4's ru_maxrss: a child of posix_spawn (vfork) keeps "
                    + "the spawning process's high-water mark across exec, so it reports the benchmark's own RSS."),
            ResultRow(
                "archive: peak RSS of extract", unit: "MiB", project: Summary(lowerIsBetter: peaks.extract),
                baselineName: "cat (either)", baseline: Summary(lowerIsBetter: peaks.cat), target: .worstAtMost(64)),
        ]
    }

    /// Runs `first < input | second > output`, each process spawned here (inside GNU time, when it is installed,
    /// for its peak RSS).
    static func pipeline(
        _ first: (String, [String]), _ second: (String, [String]), input: String, output: String,
        directory: TemporaryDirectory
    ) throws -> PipelineRun {
        let inputDescriptor = try Spawn.openFile(input)
        defer { Syscall.close(inputDescriptor) }
        let outputDescriptor = try Spawn.openFile(output, writing: true)
        defer { Syscall.close(outputDescriptor) }
        let firstErrors = directory.path + "/first.stderr"
        let secondErrors = directory.path + "/second.stderr"
        let firstPeak = directory.path + "/first.rss"
        let secondPeak = directory.path + "/second.rss"
        let measuresMemory = PeakMemory.isAvailable
        let wrappedFirst = measuresMemory ? PeakMemory.wrapping(first, reportingTo: firstPeak) : first
        let wrappedSecond = measuresMemory ? PeakMemory.wrapping(second, reportingTo: secondPeak) : second
        let firstError = try Spawn.openFile(firstErrors, writing: true)
        defer { Syscall.close(firstError) }
        let secondError = try Spawn.openFile(secondErrors, writing: true)
        defer { Syscall.close(secondError) }
        let pipe = try Spawn.makePipe()
        var pipeOpen = (read: true, write: true)
        defer {
            if pipeOpen.read { Syscall.close(pipe.read) }
            if pipeOpen.write { Syscall.close(pipe.write) }
        }

        let start = MonotonicClock.now()
        let firstProcess = try Spawn.start(
            wrappedFirst.0, wrappedFirst.1, standardInput: inputDescriptor, standardOutput: pipe.write,
            standardError: firstError)
        Syscall.close(pipe.write)
        pipeOpen.write = false
        let secondProcess = try Spawn.start(
            wrappedSecond.0, wrappedSecond.1, standardInput: pipe.read, standardOutput: outputDescriptor,
            standardError: secondError)
        Syscall.close(pipe.read)
        pipeOpen.read = false
        let firstExit = try Spawn.wait(firstProcess, name: first.0)
        let secondExit = try Spawn.wait(secondProcess, name: second.0)
        let elapsed = MonotonicClock.elapsed(since: start)

        for (command, exit, errors) in [(first, firstExit, firstErrors), (second, secondExit, secondErrors)]
        where exit != 0 {
            let message = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            throw BenchmarkError(
                "\(command.0) \(command.1.joined(separator: " ")) exited with \(exit): \(message)")
        }
        guard measuresMemory else {
            return PipelineRun(nanoseconds: elapsed)
        }
        return PipelineRun(
            nanoseconds: elapsed, firstPeakMiB: try PeakMemory.mebibytes(in: firstPeak),
            secondPeakMiB: try PeakMemory.mebibytes(in: secondPeak))
    }

    /// Checks once that the pipeline gives back the input's bytes: `pack < input | extract | cmp - input`.
    private static func checkRoundTrip(_ tool: String, input: String, directory: TemporaryDirectory) throws {
        guard
            ["/usr/bin/cmp", "/bin/cmp"].contains(where: { (path: String) in
                FileManager.default.isExecutableFile(atPath: path)
            })
        else {
            return
        }
        let script = "\"$0\" extract - --type \(type) | cmp - \"$1\""
        _ = try pipeline(
            (tool, ["pack", "-", "--type", type]), ("/bin/sh", ["-c", script, tool, input]), input: input,
            output: "/dev/null", directory: directory)
    }
}
