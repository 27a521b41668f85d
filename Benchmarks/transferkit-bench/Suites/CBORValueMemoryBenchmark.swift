import CBOR
import Foundation
import TransferKitPlatform

/// Part of the coder suite: the peak memory of `CBORValue(decoding:)` over a large document, as a multiple of the
/// document's size, against `CBORDecoder` decoding the same document into Codable records.
///
/// Each figure comes from a child copy of the benchmark
/// (`transferkit-bench --cbor-value-child value|codable records|models BYTES`)
/// that makes the document, reads its own resident memory (`VmRSS`), decodes, and reads its peak (`VmHWM`): the
/// difference is what the decode needed at most. A fresh process, because a warm one reuses freed memory that does
/// not show in its resident figures.
enum CBORValueMemoryBenchmark {
    static let childFlag = "--cbor-value-child"

    static func run(_ configuration: RunConfiguration) async -> [ResultRow] {
        var rows: [ResultRow] = []
        for document in Document.allCases {
            rows.append(await measure(configuration, document))
        }
        return rows
    }

    /// What the document is an array of.
    enum Document: String, CaseIterable {
        /// The coder suite's `Record`: integers, doubles, short strings, arrays, 64 bytes of data.
        case records
        /// The seeds' `Model`: three short strings.
        case models
    }

    private static func measure(_ configuration: RunConfiguration, _ document: Document) async -> ResultRow {
        let name = "coder: CBORValue(decoding:) peak memory, \(document.rawValue)"
        let bytes = configuration.quick ? 5 << 20 : 50 << 20
        do {
            let benchmark = try ProductsDirectory.executable("transferkit-bench")
            let directory = try TemporaryDirectory()
            var value: [Double] = []
            var codable: [Double] = []
            for run in 0..<(configuration.quick ? 1 : 3) {
                let report = "\(directory.path)/peak-\(run)"
                value.append(try child(benchmark, "value", document, bytes, report: report + "-value"))
                codable.append(try child(benchmark, "codable", document, bytes, report: report + "-codable"))
            }
            let type = document == .records ? "Record" : "Model"
            return ResultRow(
                name, unit: "× input", project: Summary(lowerIsBetter: value), baselineName: "CBORDecoder [\(type)]",
                baseline: Summary(lowerIsBetter: codable), target: .worstAtMost(2),
                note: "The growth of peak RSS (VmHWM) over the RSS before the decode, divided by the input's size, for "
                    + "CBORValue(decoding:) of \(bytes >> 20) MiB of CBOR (an array of the coder suite's \(type)), in a "
                    + "fresh child process per sample; the baseline decodes the same bytes as [\(type)] with "
                    + "CBORDecoder.")
        } catch {
            return ResultRow(name, status: .error, note: "\(error)")
        }
    }

    private static func child(
        _ benchmark: String, _ mode: String, _ document: Document, _ bytes: Int, report: String
    ) throws -> Double {
        let output = try Spawn.openFile(report, writing: true)
        let (_, status) = try Spawn.run(benchmark, [childFlag, mode, document.rawValue, String(bytes)], output: output)
        Syscall.close(output)
        let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
        guard status == 0, let ratio = Double(text.split(separator: "\n").last ?? "") else {
            throw BenchmarkError("\(childFlag) \(mode) failed (status \(status)): \(text)")
        }
        return ratio
    }

    /// The child: makes about `BYTES` of CBOR, decodes it, prints the peak's growth over the input's size.
    static func child(_ arguments: [String]) -> Int32 {
        guard arguments.count == 3, let document = Document(rawValue: arguments[1]), let target = Int(arguments[2]),
            target > 0, arguments[0] == "value" || arguments[0] == "codable"
        else {
            BenchmarkProgram.printError("usage: transferkit-bench \(childFlag) value|codable records|models BYTES")
            return 2
        }
        do {
            switch document {
            case .records: try measureChild(arguments[0], target, make: { _ in Record.sample })
            case .models: try measureChild(arguments[0], target, make: Model.numbered)
            }
            return 0
        } catch {
            BenchmarkProgram.printError("transferkit-bench \(childFlag): \(error)")
            return 1
        }
    }

    private static func measureChild<T: Codable>(_ mode: String, _ target: Int, make: (Int) -> T) throws {
        let one = try CBOREncoder().encode(make(0)).count
        let elements = (0..<max(1, target / one)).map(make)
        let input = [UInt8](try CBOREncoder().encode(elements))
        // Making the input peaked higher than the decode may (the encoder's `Data` and its copy): reset the peak, or
        // the figure could not go below about 1× the input.
        try resetPeak()
        let before = try memory("VmRSS")
        let after: Int
        if mode == "value" {
            let value = try CBORValue(decoding: input)
            after = try memory("VmHWM")
            blackHole(value)
        } else {
            let decoded = try CBORDecoder().decode([T].self, from: input)
            after = try memory("VmHWM")
            blackHole(decoded)
        }
        print(Double(after - before) / Double(input.count))
    }

    /// Sets `VmHWM` back to the current resident size (`proc(5)`, `clear_refs`: "5").
    private static func resetPeak() throws {
        guard let file = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else {
            throw BenchmarkError("cannot open /proc/self/clear_refs to reset the peak")
        }
        defer { try? file.close() }
        try file.write(contentsOf: Data("5".utf8))
    }

    /// A figure of `/proc/self/status` in bytes.
    private static func memory(_ field: String) throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            let fields = line.dropFirst(field.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" })
            if let kibibytes = fields.first.flatMap({ Int($0) }) {
                return kibibytes * 1024
            }
        }
        throw BenchmarkError("/proc/self/status has no \(field)")
    }
}
