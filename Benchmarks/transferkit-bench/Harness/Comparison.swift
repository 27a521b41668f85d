import Foundation

/// The change between a previous run's JSON report (`--json`) and this run, row by row: `--compare OLD.json`.
///
/// Absolute figures drift by 30 % on a shared machine, so the column to trust is the ratio's change: each run's
/// ratio was measured against a baseline in that same run.
struct Comparison {
    var old: Report
    var new: Report

    /// Reads the report at `path`.
    static func load(_ path: String) throws -> Report {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw BenchmarkError("cannot read \(path): \(error.localizedDescription)")
        }
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        do {
            return try decoder.decode(Report.self, from: data)
        } catch {
            throw BenchmarkError("\(path) is not a transferkit-bench JSON report (--json): \(error)")
        }
    }

    /// The table of changes, then the rows only one of the runs has.
    func table() -> String {
        let header = ["benchmark", "unit", "old median", "new median", "change", "old ratio", "new ratio", "result"]
        var lines: [[String]] = []
        let oldRows = Dictionary(old.rows.map { ($0.benchmark, $0) }, uniquingKeysWith: { first, _ in first })
        for row in new.rows {
            guard let before = oldRows[row.benchmark] else {
                continue
            }
            lines.append([
                row.benchmark, row.unit, Format.number(before.project?.median ?? .nan),
                Format.number(row.project?.median ?? .nan),
                Self.change(before.project?.median, row.project?.median, higherIsBetter: row.unit.hasSuffix("/s")),
                Self.ratioText(before), Self.ratioText(row),
                before.status == row.status
                    ? row.status.rawValue : "\(before.status.rawValue) → \(row.status.rawValue)",
            ])
        }
        let widths = header.indices.map { column in ([header] + lines).map { $0[column].count }.max() ?? 0 }
        func render(_ cells: [String]) -> String {
            cells.indices.map { Format.padded(cells[$0], widths[$0], right: (2...6).contains($0)) }
                .joined(separator: " | ")
        }
        var output = [
            "compared with the run of \(old.date) (load average \(old.loadAverageAtStart.map(Format.number) ?? "?"), "
                + "\(old.quick ? "--quick" : "full")); this run: load average "
                + "\(new.loadAverageAtStart.map(Format.number) ?? "?")",
            render(header), widths.map { String(repeating: "-", count: $0) }.joined(separator: "-|-"),
        ]
        output += lines.map(render)
        let newNames = Set(new.rows.map(\.benchmark))
        let added = new.rows.map(\.benchmark).filter { oldRows[$0] == nil }
        let gone = old.rows.map(\.benchmark).filter { !newNames.contains($0) }
        if !added.isEmpty {
            output.append("only in this run: " + added.joined(separator: "; "))
        }
        if !gone.isEmpty {
            output.append("only in the old run: " + gone.joined(separator: "; "))
        }
        output.append(
            "change = new median against old, as 'better' or 'worse' by the unit's direction; compare ratios first: "
                + "each was measured against its baseline in its own run.")
        return output.joined(separator: "\n")
    }

    /// `1.25× better`, `1.10× worse` or `same`, by the direction of the unit.
    static func change(_ old: Double?, _ new: Double?, higherIsBetter: Bool) -> String {
        guard let old, let new, old.isFinite, new.isFinite, old > 0, new > 0 else {
            return "—"
        }
        let factor = higherIsBetter ? new / old : old / new
        if abs(factor - 1) < 0.005 {
            return "same"
        }
        return factor > 1 ? "\(Format.ratio(factor)) better" : "\(Format.ratio(1 / factor)) worse"
    }

    private static func ratioText(_ row: ResultRow) -> String {
        row.ratio.map { "\(Format.ratio($0)) \(row.ratioMeaning ?? "")" } ?? "—"
    }
}
