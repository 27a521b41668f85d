import CBOR
import Foundation
import TransferKit

/// Benchmark 1: the seeds' `Model` through a `TransferProvider` and its JSON representation, against the JSON
/// coders alone; and the same model with `TransferCoding.cbor` against the CBOR coders alone.
enum ProviderBenchmark {
    static func run(_ configuration: RunConfiguration) async -> [ResultRow] {
        let name = "provider: register + loadObject"
        var rows: [ResultRow]
        do {
            rows = try await measureJSON(configuration, name: name)
        } catch {
            rows = [ResultRow(name, status: .error, note: "\(error)")]
        }
        let cborName = "provider (CBOR): register + loadObject"
        do {
            rows.append(try await measureCBOR(configuration, name: cborName))
        } catch {
            rows.append(ResultRow(cborName, status: .error, note: "\(error)"))
        }
        return rows
    }

    private static let encodedPath = TransferProvider.LoadOptions(allowsInProcessFastPath: false)

    /// A provider of `model` with the fast path off, after checking that its load really decodes: an equal model,
    /// not the registered instance.
    private static func checkedProvider<M: TransferCodable & Equatable & AnyObject>(
        _ model: M
    ) async throws -> TransferProvider {
        let provider = TransferProvider(object: model)
        provider.loadOptions = encodedPath
        let loaded = try await provider.loadObject(ofClass: M.self)
        guard loaded == model, loaded !== model else {
            throw BenchmarkError("loadObject with the fast path off did not decode an equal copy of the \(M.self)")
        }
        return provider
    }

    /// A fresh provider per operation: `TransferProvider(object:)`, fast path off, `loadObject(ofClass:)`.
    private static func registerAndLoad<M: TransferCodable & AnyObject>(_ model: M) -> PairedRunner.Batch {
        { iterations in
            for _ in 0..<iterations {
                let provider = TransferProvider(object: model)
                provider.loadOptions = encodedPath
                blackHole(try await provider.loadObject(ofClass: M.self))
            }
        }
    }

    private static func row(
        _ name: String, _ samples: PairedSamples, baseline: String, target: Target?, note: String
    ) -> ResultRow {
        ResultRow(
            name, unit: "µs/op", project: Summary(lowerIsBetter: samples.project).mapped { $0 / 1e3 },
            baselineName: baseline, baseline: Summary(lowerIsBetter: samples.baseline).mapped { $0 / 1e3 },
            ratio: samples.medianCostRatio, ratioMeaning: "time", target: target, note: note)
    }

    private static func measureJSON(_ configuration: RunConfiguration, name: String) async throws -> [ResultRow] {
        let model = Model.sample
        let check = try await checkedProvider(model)
        let baseline: PairedRunner.Batch = { iterations in
            for _ in 0..<iterations {
                let data = try JSONEncoder().encode(model)
                blackHole(try JSONDecoder().decode(Model.self, from: data))
            }
        }
        let registerAndLoad = try await PairedRunner.compare(
            configuration, project: registerAndLoad(model), baseline: baseline)
        let loadOnly = try await PairedRunner.compare(
            configuration,
            project: { iterations in
                for _ in 0..<iterations {
                    blackHole(try await check.loadObject(ofClass: Model.self))
                }
            }, baseline: baseline)
        let baselineName = "JSONEncoder+JSONDecoder"
        return [
            row(
                name, registerAndLoad, baseline: baselineName, target: .ratioAtMost(1.10),
                note: "A fresh provider per operation: TransferProvider(object:), fast path off, "
                    + "loadObject(ofClass:) through the sorted-keys JSON representation. The baseline is "
                    + "JSONEncoder().encode + JSONDecoder().decode of the same model."),
            row(
                "provider: loadObject only", loadOnly, baseline: baselineName, target: nil,
                note: "Diagnostic: the same load from one provider registered once, to separate registration from "
                    + "loading."),
        ]
    }

    /// The CBOR row: the same model with `TransferCoding.cbor`, against `CBOREncoder().encode` +
    /// `CBORDecoder().decode`.
    private static func measureCBOR(_ configuration: RunConfiguration, name: String) async throws -> ResultRow {
        let model = CBORModel.sample
        _ = try await checkedProvider(model)
        let samples = try await PairedRunner.compare(
            configuration, project: registerAndLoad(model),
            baseline: { iterations in
                for _ in 0..<iterations {
                    let data = try CBOREncoder().encode(model)
                    blackHole(try CBORDecoder().decode(CBORModel.self, from: data))
                }
            })
        return row(
            name, samples, baseline: "CBOREncoder+CBORDecoder", target: .ratioAtMost(1.10),
            note: "As the JSON row, for the same model with TransferCoding.cbor (content type conforming to "
                + "org.transferkit.cbor, application/cbor). The baseline is CBOREncoder().encode + "
                + "CBORDecoder().decode.")
    }
}
