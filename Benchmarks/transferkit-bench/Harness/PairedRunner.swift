/// Samples of a project operation and its baseline, taken alternately in one run.
struct PairedSamples: Sendable {
    /// The project's cost per sample (lower is better), such as nanoseconds per operation.
    var project: [Double] = []
    /// The baseline's cost per sample, in the same unit.
    var baseline: [Double] = []

    /// Project cost divided by baseline cost, pair by pair: neighbours in time share the machine's load, so the
    /// ratio holds when other work slows both down.
    var costRatios: [Double] {
        zip(project, baseline).map { $0 / $1 }
    }

    /// The median of ``costRatios``: how many times the baseline's cost the project's costs (`time ×`).
    var medianCostRatio: Double {
        Summary.median(costRatios)
    }

    /// The median of the inverse ratios: how many times the baseline's rate the project reaches (`throughput ×`).
    var medianRateRatio: Double {
        Summary.median(costRatios.map { 1 / $0 })
    }
}

/// Runs benchmarks: warm-up, calibration of batch sizes, and alternating project and baseline samples.
enum PairedRunner {
    /// An operation run `iterations` times in a row; the runner times the whole batch.
    typealias Batch = (_ iterations: Int) async throws -> Void

    /// Measures two fast operations in nanoseconds per operation, alternating batches (ABBA order, so neither side
    /// always runs first).
    ///
    /// Each side is warmed up and given its own batch size, so that a batch takes about
    /// ``RunConfiguration/sampleNanoseconds``.
    static func compare(
        _ configuration: RunConfiguration, project: Batch, baseline: Batch
    ) async throws -> PairedSamples {
        let projectSize = try await calibrate(configuration, project)
        let baselineSize = try await calibrate(configuration, baseline)
        var samples = PairedSamples()
        for pair in 0..<configuration.microPairs {
            if pair % 2 == 0 {
                samples.project.append(try await time(project, projectSize))
                samples.baseline.append(try await time(baseline, baselineSize))
            } else {
                samples.baseline.append(try await time(baseline, baselineSize))
                samples.project.append(try await time(project, projectSize))
            }
        }
        return samples
    }

    /// Measures one fast operation in nanoseconds per operation.
    static func measure(_ configuration: RunConfiguration, _ operation: Batch) async throws -> [Double] {
        let size = try await calibrate(configuration, operation)
        var samples: [Double] = []
        for _ in 0..<configuration.microPairs {
            samples.append(try await time(operation, size))
        }
        return samples
    }

    /// Alternates two slow operations that time themselves (process runs, whole-file streams), `pairs` times.
    static func alternate(
        pairs: Int, warmup: Bool = true, project: () async throws -> Double, baseline: () async throws -> Double
    ) async throws -> PairedSamples {
        if warmup {
            _ = try await project()
            _ = try await baseline()
        }
        var samples = PairedSamples()
        for pair in 0..<pairs {
            if pair % 2 == 0 {
                samples.project.append(try await project())
                samples.baseline.append(try await baseline())
            } else {
                samples.baseline.append(try await baseline())
                samples.project.append(try await project())
            }
        }
        return samples
    }

    /// Nanoseconds per operation over one batch.
    private static func time(_ operation: Batch, _ iterations: Int) async throws -> Double {
        let start = MonotonicClock.now()
        try await operation(iterations)
        return MonotonicClock.elapsed(since: start) / Double(iterations)
    }

    /// Warms `operation` up and returns the batch size that takes about a sample's time.
    private static func calibrate(_ configuration: RunConfiguration, _ operation: Batch) async throws -> Int {
        var iterations = 1
        var perOperation = 0.0
        let warmupStart = MonotonicClock.now()
        while true {
            let start = MonotonicClock.now()
            try await operation(iterations)
            let elapsed = MonotonicClock.elapsed(since: start)
            perOperation = elapsed / Double(iterations)
            if elapsed >= configuration.sampleNanoseconds / 4 {
                break
            }
            iterations *= 2
        }
        while MonotonicClock.elapsed(since: warmupStart) < configuration.warmupNanoseconds {
            try await operation(iterations)
        }
        return max(1, Int(configuration.sampleNanoseconds / max(perOperation, 1)))
    }
}
