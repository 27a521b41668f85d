/// The spread of one figure over the samples of a benchmark.
///
/// Figures keep their natural direction: for a time, `best` is the minimum; for a throughput (computed from the
/// minimum time), it is the maximum.
struct Summary: Codable, Sendable {
    /// The best sample: the minimum time, or the throughput at the minimum time.
    var best: Double
    /// The median sample.
    var median: Double
    /// The worst sample.
    var worst: Double
    /// How many samples were taken.
    var samples: Int

    /// The summary of samples whose lower values are better (times, bytes).
    init(lowerIsBetter values: [Double]) {
        let sorted = values.sorted()
        best = sorted.first ?? .nan
        worst = sorted.last ?? .nan
        median = Self.median(of: sorted)
        samples = values.count
    }

    /// The summary of samples whose higher values are better (throughputs).
    init(higherIsBetter values: [Double]) {
        let sorted = values.sorted()
        best = sorted.last ?? .nan
        worst = sorted.first ?? .nan
        median = Self.median(of: sorted)
        samples = values.count
    }

    /// The median of already sorted values (the mean of the middle two for an even count).
    static func median(of sorted: [Double]) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The median of values in any order.
    static func median(_ values: [Double]) -> Double {
        median(of: values.sorted())
    }

    /// The summary with every figure converted, e.g. from nanoseconds per operation to operations per second.
    ///
    /// The best sample stays the best (the fastest, whatever the unit), so a decreasing conversion such as a time
    /// into a rate keeps `best` as `best`.
    func mapped(_ transform: (Double) -> Double) -> Summary {
        var copy = self
        copy.best = transform(best)
        copy.median = transform(median)
        copy.worst = transform(worst)
        return copy
    }
}
