import Foundation
import TransferKit

/// Benchmark 5: one update of a child in a two-level progress tree, against Foundation's `Progress`.
enum ProgressBenchmark {
    static func run(_ configuration: RunConfiguration) async -> [ResultRow] {
        let name = "progress: child advance(by: 1)"
        do {
            // Totals far above what any run reaches, so neither child finishes and detaches mid-measurement.
            let total: Int64 = 1 << 60
            let parent = TransferProgress(totalUnitCount: 1)
            let child = parent.makeChild(withPendingUnitCount: 1, totalUnitCount: total)
            let foundationParent = Progress(totalUnitCount: 1)
            let foundationChild = Progress(totalUnitCount: total, parent: foundationParent, pendingUnitCount: 1)
            let samples = try await PairedRunner.compare(
                configuration,
                project: { iterations in
                    for _ in 0..<iterations {
                        child.advance(by: 1)
                    }
                },
                baseline: { iterations in
                    for _ in 0..<iterations {
                        foundationChild.completedUnitCount += 1
                    }
                })
            guard child.completedUnitCount > 0, foundationChild.completedUnitCount > 0, parent.fractionCompleted > 0
            else {
                throw BenchmarkError("the progress updates did not reach the tree")
            }
            return [
                ResultRow(
                    name, unit: "ns/op", project: Summary(lowerIsBetter: samples.project),
                    baselineName: "Foundation.Progress +=1", baseline: Summary(lowerIsBetter: samples.baseline),
                    ratio: samples.medianCostRatio, ratioMeaning: "time",
                    note: "TransferProgress child of a parent, advance(by: 1), against a Foundation.Progress child "
                        + "(init(totalUnitCount:parent:pendingUnitCount:)) doing completedUnitCount += 1.")
            ]
        } catch {
            return [ResultRow(name, status: .error, note: "\(error)")]
        }
    }
}
