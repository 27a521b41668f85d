import CBOR
import Foundation

/// Benchmark 7: the Codable CBOR coder against Foundation's JSON coders, encode and decode separately, on the
/// seeds' `Model`, on a record of every common field type, on the peer benchmark's `Book`, and on arrays of 100 000
/// models and of 100 000 books; then the peak memory of `CBORValue(decoding:)`.
enum CoderBenchmark {
    static func run(_ configuration: RunConfiguration) async -> [ResultRow] {
        var rows: [ResultRow] = []
        let count = configuration.quick ? 10_000 : 100_000
        rows += await workload(configuration, "Model", unit: "ns/op", scale: 1, Model.sample)
        rows += await workload(configuration, "Record", unit: "ns/op", scale: 1, Record.sample)
        rows += await workload(configuration, "Book", unit: "ns/op", scale: 1, Book.sample)
        // Each operation takes tens of milliseconds: fewer pairs.
        var large = configuration
        large.microPairs = min(configuration.microPairs, 11)
        rows += await workload(
            large, "\(count / 1000) k-model array", unit: "ms/op", scale: 1e-6, (0..<count).map(Model.numbered))
        rows += await workload(
            large, "\(count / 1000) k-book array", unit: "ms/op", scale: 1e-6, (0..<count).map(Book.numbered))
        rows += await CBORValueMemoryBenchmark.run(configuration)
        return rows
    }

    /// An encode row and a decode row for `value`, each against the JSON coder in the same run.
    private static func workload<T: Codable & Equatable>(
        _ configuration: RunConfiguration, _ name: String, unit: String, scale: Double, _ value: T
    ) async -> [ResultRow] {
        do {
            let cborEncoder = CBOREncoder()
            let cborDecoder = CBORDecoder()
            let jsonEncoder = JSONEncoder()
            let jsonDecoder = JSONDecoder()
            let cbor = try cborEncoder.encode(value)
            let json = try jsonEncoder.encode(value)
            guard try cborDecoder.decode(T.self, from: cbor) == value,
                try jsonDecoder.decode(T.self, from: json) == value
            else {
                throw BenchmarkError("a coder did not give back an equal \(name)")
            }
            let encode = try await PairedRunner.compare(
                configuration,
                project: { iterations in
                    for _ in 0..<iterations { blackHole(try cborEncoder.encode(value)) }
                },
                baseline: { iterations in
                    for _ in 0..<iterations { blackHole(try jsonEncoder.encode(value)) }
                })
            let decode = try await PairedRunner.compare(
                configuration,
                project: { iterations in
                    for _ in 0..<iterations { blackHole(try cborDecoder.decode(T.self, from: cbor)) }
                },
                baseline: { iterations in
                    for _ in 0..<iterations { blackHole(try jsonDecoder.decode(T.self, from: json)) }
                })
            let sizes = "\(cbor.count) bytes of CBOR, \(json.count) of JSON"
            return [
                row("coder: encode \(name)", unit, scale, encode, baseline: "JSONEncoder().encode", sizes),
                row("coder: decode \(name)", unit, scale, decode, baseline: "JSONDecoder().decode", sizes),
            ]
        } catch {
            return [ResultRow("coder: \(name)", status: .error, note: "\(error)")]
        }
    }

    private static func row(
        _ name: String, _ unit: String, _ scale: Double, _ samples: PairedSamples, baseline: String, _ sizes: String
    ) -> ResultRow {
        ResultRow(
            name, unit: unit, project: Summary(lowerIsBetter: samples.project).mapped { $0 * scale },
            baselineName: baseline, baseline: Summary(lowerIsBetter: samples.baseline).mapped { $0 * scale },
            ratio: samples.medianRateRatio, ratioMeaning: "throughput", target: .ratioAtLeast(4),
            note: "CBOREncoder/CBORDecoder with default options, one coder of each kind reused, against "
                + "Foundation's JSON coder with default options, also reused; \(sizes).")
    }
}

/// A record with every common field type: integers, floating-point numbers, strings, arrays, optional data and an
/// enum.
struct Record: Codable, Equatable {
    enum Kind: String, Codable {
        case photo, video, document
    }

    var id: Int
    var size: Int64
    var width: Int
    var height: Int
    var latitude: Double
    var longitude: Double
    var rating: Double
    var title: String
    var author: String
    var tags: [String]
    var samples: [Int]
    var thumbnail: Data?
    var caption: String?
    var kind: Kind

    static let sample = Record(
        id: 48_213, size: 3_145_728, width: 4032, height: 3024, latitude: 48.858_37, longitude: 2.294_481,
        rating: 4.5, title: "Tour Eiffel at dusk", author: "Panther", tags: ["travel", "paris", "night"],
        samples: [12, 512, 70_000, -3, 0], thumbnail: Data((0..<64).map { UInt8($0 * 7 % 256) }), caption: nil,
        kind: .photo)
}

/// The peer benchmark's book (as it compares SwiftCBOR and Foundation): strings, an integer, a double, an array of
/// strings, optional data and a `String` enum.
struct Book: Codable, Equatable {
    enum Kind: String, Codable {
        case novel, essay, poetry
    }

    var title: String
    var author: String
    var category: String
    var order: Int
    var rating: Double
    var tags: [String]
    var cover: Data?
    var kind: Kind

    static let sample = numbered(7)

    /// A book that differs from its neighbours; every other one has a 32-byte cover.
    static func numbered(_ index: Int) -> Book {
        Book(
            title: "The book no. \(index)", author: index % 3 == 0 ? "Le Guin" : "Calvino", category: "fiction",
            order: index, rating: Double(index % 50) / 10 + 0.25, tags: ["shelf \(index % 7)", "read"],
            cover: index % 2 == 1 ? Data((0..<32).map { UInt8(truncatingIfNeeded: $0 &* index) }) : nil,
            kind: [Kind.novel, .essay, .poetry][index % 3])
    }
}
