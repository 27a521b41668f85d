import Foundation
import TransferKit

/// Benchmark 1: the seeds' `Model` through a `TransferProvider` and its JSON representation, against the JSON
/// coders alone.
enum ProviderBenchmark {
    static func run(_ configuration: RunConfiguration) async -> [ResultRow] {
        let name = "provider: register + loadObject"
        do {
            return try await measure(configuration, name: name)
        } catch {
            return [ResultRow(name, status: .error, note: "\(error)")]
        }
    }

    private static func measure(_ configuration: RunConfiguration, name: String) async throws -> [ResultRow] {
        let model = Model.sample
        let encodedPath = TransferProvider.LoadOptions(allowsInProcessFastPath: false)

        // The load must really decode: an equal model, not the registered instance.
        let check = TransferProvider(object: model)
        check.loadOptions = encodedPath
        let loaded = try await check.loadObject(ofClass: Model.self)
        guard loaded == model, loaded !== model else {
            throw BenchmarkError("loadObject with the fast path off did not decode an equal copy of the model")
        }

        let baseline: PairedRunner.Batch = { iterations in
            for _ in 0..<iterations {
                let data = try JSONEncoder().encode(model)
                blackHole(try JSONDecoder().decode(Model.self, from: data))
            }
        }
        let registerAndLoad = try await PairedRunner.compare(
            configuration,
            project: { iterations in
                for _ in 0..<iterations {
                    let provider = TransferProvider(object: model)
                    provider.loadOptions = encodedPath
                    blackHole(try await provider.loadObject(ofClass: Model.self))
                }
            }, baseline: baseline)
        let loadOnly = try await PairedRunner.compare(
            configuration,
            project: { iterations in
                for _ in 0..<iterations {
                    blackHole(try await check.loadObject(ofClass: Model.self))
                }
            }, baseline: baseline)
        let baselineName = "JSONEncoder+JSONDecoder"
        return [
            ResultRow(
                name, unit: "µs/op", project: Summary(lowerIsBetter: registerAndLoad.project).mapped { $0 / 1e3 },
                baselineName: baselineName,
                baseline: Summary(lowerIsBetter: registerAndLoad.baseline).mapped { $0 / 1e3 },
                ratio: registerAndLoad.medianCostRatio, ratioMeaning: "time", target: .ratioAtMost(1.10),
                note: "A fresh provider per operation: TransferProvider(object:), fast path off, "
                    + "loadObject(ofClass:) through the sorted-keys JSON representation. The baseline is "
                    + "JSONEncoder().encode + JSONDecoder().decode of the same model."),
            ResultRow(
                "provider: loadObject only", unit: "µs/op",
                project: Summary(lowerIsBetter: loadOnly.project).mapped { $0 / 1e3 }, baselineName: baselineName,
                baseline: Summary(lowerIsBetter: loadOnly.baseline).mapped { $0 / 1e3 },
                ratio: loadOnly.medianCostRatio, ratioMeaning: "time",
                note: "Diagnostic: the same load from one provider registered once, to separate registration from "
                    + "loading."),
        ]
    }
}
