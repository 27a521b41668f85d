import Foundation

/// The results of one run, as a table for people and JSON for tracking.
struct Report: Codable, Sendable {
    /// When the run started (ISO 8601).
    var date: String
    /// Whether it was the `--quick` smoke run.
    var quick: Bool
    /// The number of processors the system reports.
    var processors: Int
    /// The 1-minute load average when the run started: how busy the machine was.
    var loadAverageAtStart: Double?
    /// The wall time of the whole run, in seconds.
    var durationSeconds: Double
    /// The rows, in the order they ran.
    var rows: [ResultRow]

    /// The table: one line per row, then the notes.
    func table() -> String {
        let header = [
            "benchmark", "unit", "project best / median", "baseline", "baseline best / median", "ratio", "target",
            "result",
        ]
        var lines: [[String]] = []
        var notes: [String] = []
        for row in rows {
            var name = row.benchmark
            if let note = row.note {
                notes.append(note)
                name += " [\(notes.count)]"
            }
            let ratio = row.ratio.map { "\(Format.ratio($0)) \(row.ratioMeaning ?? "")" } ?? "—"
            lines.append([
                name, row.unit, Format.summary(row.project), row.baselineName ?? "—", Format.summary(row.baseline),
                ratio,
                row.target ?? "—", row.status.rawValue,
            ])
        }
        let widths = header.indices.map { column in
            ([header] + lines).map { $0[column].count }.max() ?? 0
        }
        func render(_ cells: [String]) -> String {
            cells.indices.map { Format.padded(cells[$0], widths[$0], right: [2, 4, 5].contains($0)) }
                .joined(separator: " | ")
        }
        var output = [render(header), widths.map { String(repeating: "-", count: $0) }.joined(separator: "-|-")]
        output += lines.map(render)
        output.append("")
        output.append(
            "best = fastest sample (minimum time); ratio = median of per-pair ratios, project and baseline "
                + "alternating; time × lower is better, throughput × higher is better.")
        for (index, note) in notes.enumerated() {
            output.append("[\(index + 1)] \(note)")
        }
        let missed = rows.filter { $0.status == .miss }.map(\.benchmark)
        if !missed.isEmpty {
            output.append("TARGET MISSED: " + missed.joined(separator: "; "))
        }
        return output.joined(separator: "\n")
    }

    /// The report as pretty-printed JSON with sorted keys.
    func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try encoder.encode(self)
    }
}
