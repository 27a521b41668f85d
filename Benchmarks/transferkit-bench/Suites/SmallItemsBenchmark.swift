import Foundation
import TransferKit
import UniformTypes

/// Benchmark 3: many seed models, each its own archive item, written to and read back from the CBOR form in memory,
/// against one JSON array of the same models; once with the models' JSON payloads, once with CBOR payloads.
enum SmallItemsBenchmark {
    static func run(_ configuration: RunConfiguration) async -> [ResultRow] {
        let count = configuration.smallItemCount
        let models = (0..<count).map(Model.numbered)
        return [
            await measure(
                configuration, "archive: small items round trip", models, target: 1,
                note: "\(count) models, each an item with one com.example.model representation (its TransferCodable "
                    + "JSON), through TransferArchiveWriter into memory and back through "
                    + "TransferArchiveReader(bytes:) and Model(transferEncodedData:); the baseline is "
                    + "JSONEncoder().encode([Model]) + JSONDecoder().decode of the array."),
            await measure(
                configuration, "archive: small CBOR items round trip", models.map(CBORModel.init), target: 3,
                note: "As the row above, with the same models as CBORModel (TransferCoding.cbor, "
                    + "com.example.model.cbor): CBOR payloads in the archive, against the same JSON array of Model."),
        ]
    }

    private static func measure<M: TransferCodable & Equatable>(
        _ configuration: RunConfiguration, _ name: String, _ items: [M], target: Double, note: String
    ) async -> ResultRow {
        do {
            let models = (0..<items.count).map(Model.numbered)
            let type = M.contentType
            guard try roundTrip(items, type: type) == items, try jsonRoundTrip(models) == models else {
                throw BenchmarkError("the round trips did not give back the models")
            }
            let samples = try await PairedRunner.alternate(
                pairs: configuration.streamingPairs,
                project: {
                    let start = MonotonicClock.now()
                    blackHole(try roundTrip(items, type: type))
                    return MonotonicClock.elapsed(since: start)
                },
                baseline: {
                    let start = MonotonicClock.now()
                    blackHole(try jsonRoundTrip(models))
                    return MonotonicClock.elapsed(since: start)
                })
            let itemsPerSecond = { (nanoseconds: Double) in Double(items.count) / nanoseconds * 1e9 / 1e3 }
            return ResultRow(
                name, unit: "k items/s",
                project: Summary(lowerIsBetter: samples.project).mapped(itemsPerSecond),
                baselineName: "JSON array coders",
                baseline: Summary(lowerIsBetter: samples.baseline).mapped(itemsPerSecond),
                ratio: samples.medianRateRatio, ratioMeaning: "throughput", target: .ratioAtLeast(target), note: note)
        } catch {
            return ResultRow(name, status: .error, note: "\(error)")
        }
    }

    /// Writes every model as its own item, reads the archive back and decodes the models.
    static func roundTrip<M: TransferCodable>(_ models: [M], type: UniformType) throws -> [M] {
        let output = OutputBuffer()
        var writer = TransferArchiveWriter { output.bytes.append(contentsOf: $0) }
        try writer.begin(itemCount: models.count)
        for model in models {
            try writer.beginItem(suggestedName: nil, metadata: [:], representationCount: 1)
            try writer.writeRepresentation(type: type, data: model.transferEncodedData())
        }
        try writer.finish()

        // The default limits accept 65 536 items; this archive is made here, so allow what it holds.
        var limits = TransferArchive.Limits.default
        limits.maxItemCount = max(limits.maxItemCount, models.count)
        var reader = try TransferArchiveReader(bytes: output.bytes, limits: limits)
        var decoded: [M] = []
        decoded.reserveCapacity(models.count)
        var payload = Data()
        while try reader.nextItem() != nil {
            while try reader.nextRepresentation() != nil {
                payload.removeAll(keepingCapacity: true)
                try reader.readPayload { payload.append(contentsOf: $0) }
                decoded.append(try M(transferEncodedData: payload))
            }
        }
        return decoded
    }

    /// The baseline: the models as one JSON array and back.
    static func jsonRoundTrip(_ models: [Model]) throws -> [Model] {
        let data = try JSONEncoder().encode(models)
        return try JSONDecoder().decode([Model].self, from: data)
    }

    /// Where the writer's blocks go.
    final class OutputBuffer {
        var bytes: [UInt8] = []
    }
}
