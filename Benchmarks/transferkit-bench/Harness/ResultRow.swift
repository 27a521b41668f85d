/// One line of the benchmark table (and one object of the JSON report).
struct ResultRow: Codable, Sendable {
    /// Whether a row met its target.
    enum Status: String, Codable, Sendable {
        /// The target was met.
        case pass
        /// The target was missed; the table says so in capitals.
        case miss = "MISSED"
        /// No target: the figures are reported for tracking.
        case report
        /// The benchmark could not run yet (a part of the project it needs is missing).
        case unavailable = "n/a"
        /// The benchmark failed to run.
        case error = "ERROR"
    }

    /// The benchmark's name, such as `provider: register + loadObject`.
    var benchmark: String
    /// The unit of the project and baseline figures, such as `ns/op` or `MB/s`.
    var unit: String
    /// The project's figures.
    var project: Summary?
    /// What the baseline is, such as `JSONEncoder + JSONDecoder`.
    var baselineName: String?
    /// The baseline's figures, measured in the same run, alternating with the project's.
    var baseline: Summary?
    /// The median of the per-pair ratios, oriented as `ratioMeaning` says.
    var ratio: Double?
    /// How to read the ratio, such as `time ×` (lower is better) or `throughput ×` (higher is better).
    var ratioMeaning: String?
    /// The target, as text, such as `≤ 1.10×`.
    var target: String?
    /// Whether the target was met.
    var status: Status
    /// Anything a reader needs to know: what limits the figure, why it could not run.
    var note: String?
}

/// A target for a row: a bound on the ratio or on one of the project's figures.
enum Target: Sendable {
    /// The ratio must be at most this.
    case ratioAtMost(Double)
    /// The ratio must be at least this.
    case ratioAtLeast(Double)
    /// The project's best figure must be at most this (in the row's unit).
    case bestAtMost(Double)
    /// The project's best figure must be at least this (in the row's unit).
    case bestAtLeast(Double)
    /// The project's worst figure must be at most this (in the row's unit); for limits every run must keep.
    case worstAtMost(Double)

    /// The target as the table shows it.
    func text(unit: String) -> String {
        switch self {
        case .ratioAtMost(let bound): "≤ \(Format.ratio(bound))"
        case .ratioAtLeast(let bound): "≥ \(Format.ratio(bound))"
        case .bestAtMost(let bound): "best ≤ \(Format.number(bound)) \(unit)"
        case .bestAtLeast(let bound): "best ≥ \(Format.number(bound)) \(unit)"
        case .worstAtMost(let bound): "worst ≤ \(Format.number(bound)) \(unit)"
        }
    }

    /// Whether the figures meet the target; `nil` when the figure it needs is missing.
    func isMet(project: Summary?, ratio: Double?) -> Bool? {
        switch self {
        case .ratioAtMost(let bound): ratio.map { $0 <= bound }
        case .ratioAtLeast(let bound): ratio.map { $0 >= bound }
        case .bestAtMost(let bound): project.map { $0.best <= bound }
        case .bestAtLeast(let bound): project.map { $0.best >= bound }
        case .worstAtMost(let bound): project.map { $0.worst <= bound }
        }
    }
}

extension ResultRow {
    /// A row with figures, judged against `target` (or reported without one).
    init(
        _ benchmark: String, unit: String, project: Summary, baselineName: String? = nil, baseline: Summary? = nil,
        ratio: Double? = nil, ratioMeaning: String? = nil, target: Target? = nil, note: String? = nil
    ) {
        self.benchmark = benchmark
        self.unit = unit
        self.project = project
        self.baselineName = baselineName
        self.baseline = baseline
        self.ratio = ratio
        self.ratioMeaning = ratioMeaning
        self.target = target?.text(unit: unit)
        self.note = note
        if let target {
            status = target.isMet(project: project, ratio: ratio) == true ? .pass : .miss
        } else {
            status = .report
        }
    }

    /// A row for a benchmark that did not produce figures.
    init(_ benchmark: String, status: Status, target: String? = nil, note: String) {
        self.benchmark = benchmark
        self.unit = ""
        self.status = status
        self.target = target
        self.note = note
    }
}
