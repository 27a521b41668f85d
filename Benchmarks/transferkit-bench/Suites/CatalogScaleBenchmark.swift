import Foundation
import TransferKitPlatform

/// Benchmark 7: `transferkit types --declarations FILE` with 100 000 declared types (10 000 with `--quick`), its
/// wall time and peak RSS, against the same command without the file.
///
/// The catalogue used to keep an n × n bitset of supertypes: 1.4 GB and 3–5.5 s for 100 000 types.
enum CatalogScaleBenchmark {
    static func run(_ configuration: RunConfiguration) async -> [ResultRow] {
        let count = configuration.quick ? 10_000 : 100_000
        let name = "scale: load \(count) declared types"
        let rssName = "scale: peak RSS, \(count) declared types"
        do {
            let tool = try ProductsDirectory.executable("transferkit")
            let directory = try TemporaryDirectory()
            let file = directory.path + "/types.json"
            try declarations(count: count).write(to: URL(fileURLWithPath: file))
            let last = "com.example.scale.t\(count - 1)"
            let measuresMemory = PeakMemory.isAvailable
            var peaks: [Double] = []
            func timed(_ arguments: [String], keepPeak: Bool) throws -> Double {
                let peakFile = directory.path + "/peak.txt"
                let (executable, wrapped) =
                    measuresMemory ? PeakMemory.wrapping((tool, arguments), reportingTo: peakFile) : (tool, arguments)
                let output = try Spawn.openFile(directory.path + "/output.txt", writing: true)
                defer { Syscall.close(output) }
                let (nanoseconds, exit) = try Spawn.run(executable, wrapped, output: output)
                guard exit == 0 else {
                    throw BenchmarkError("transferkit \(arguments.joined(separator: " ")) exited with \(exit)")
                }
                if keepPeak, measuresMemory {
                    peaks.append(try PeakMemory.mebibytes(in: peakFile))
                }
                return nanoseconds / 1e6
            }
            let loading = ["types", "--declarations", file, last]
            let output = directory.path + "/output.txt"
            _ = try timed(loading, keepPeak: false)
            guard (try? String(contentsOfFile: output, encoding: .utf8))?.contains("conformance:") == true else {
                throw BenchmarkError("transferkit \(loading.joined(separator: " ")) did not describe \(last)")
            }
            let samples = try await PairedRunner.alternate(
                pairs: configuration.quick ? 3 : 5, warmup: false,
                project: { try timed(loading, keepPeak: true) },
                baseline: { try timed(["types", "public.png"], keepPeak: false) })
            let note =
                "transferkit types --declarations FILE \(last), FILE holding \(count) exported types (a third conform "
                + "to a built-in type, the rest to an earlier declared type, a fifth also to a built-in one; each "
                + "with one filename extension); the baseline is `transferkit types public.png`. Spawn to reap"
                + (measuresMemory ? ", inside /usr/bin/time -f %M." : ".")
            var rows = [
                ResultRow(
                    name, unit: "ms", project: Summary(lowerIsBetter: samples.project),
                    baselineName: "types public.png", baseline: Summary(lowerIsBetter: samples.baseline),
                    ratio: samples.medianCostRatio, ratioMeaning: "time",
                    target: configuration.quick ? nil : .bestAtMost(500), note: note)
            ]
            if measuresMemory {
                rows.append(
                    ResultRow(
                        rssName, unit: "MiB", project: Summary(lowerIsBetter: peaks),
                        target: configuration.quick ? nil : .worstAtMost(300),
                        note: "Peak RSS of each run above, from GNU time."))
            } else {
                rows.append(
                    ResultRow(
                        rssName, status: .unavailable, target: "worst ≤ 300 MiB",
                        note: "\(PeakMemory.tool) is missing; install it: apt-get install -y time"))
            }
            return rows
        } catch {
            return [ResultRow(name, status: .error, target: "best ≤ 500 ms", note: "\(error)")]
        }
    }

    /// A declarations file of `count` types `com.example.scale.t<n>`, the same for every run.
    static func declarations(count: Int) -> Data {
        let builtIn = ["public.json", "public.data", "public.text", "public.image", "public.xml"]
        var generator = SplitMix(seed: 0x5CA1E)
        var text = #"{"exported":["#
        text.reserveCapacity(count * 120)
        for number in 0..<count {
            var parents: [String]
            if number < 10 || Int.random(in: 0..<3, using: &generator) == 0 {
                parents = [builtIn[Int.random(in: builtIn.indices, using: &generator)]]
            } else {
                parents = ["com.example.scale.t\(Int.random(in: 0..<number, using: &generator))"]
            }
            if Int.random(in: 0..<5, using: &generator) == 0 {
                parents.append(builtIn[Int.random(in: builtIn.indices, using: &generator)])
            }
            let quoted = parents.map { "\"\($0)\"" }.joined(separator: ",")
            text += number == 0 ? "" : ","
            text += #"{"identifier":"com.example.scale.t\#(number)","conformsTo":[\#(quoted)],"#
            text += #""tags":{"public.filename-extension":["sc\#(number)"]}}"#
        }
        text += "]}"
        return Data(text.utf8)
    }
}
