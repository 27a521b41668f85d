import Foundation
import TransferImaging
import TransferKit
import TransferKitPlatform
import UniformTypes

/// The built-in converters' throughput, each over the same input in 1 MiB chunks (as a provider streams a derived
/// representation), against `iconv` on the same bytes where iconv does the same conversion; the image rows convert
/// the imaging benchmark's image and count its input bytes (the PNG's, or the BMP's). Reported only:
/// iconv is a separate process that reads a file and writes to /dev/null, so its figure includes its start
/// (about a millisecond against tens of milliseconds of work).
enum ConverterBenchmark {
    struct Case {
        var name: String
        var source: UniformType
        var destination: UniformType
        /// iconv's `-f` and `-t`, when iconv does this conversion.
        var iconv: (from: String, to: String)?
    }

    static let cases: [Case] = [
        Case(
            name: "UTF-8 → UTF-16 with a mark", source: .utf8PlainText, destination: .utf16ExternalPlainText,
            iconv: ("UTF-8", "UTF-16")),
        Case(
            name: "UTF-16 with a mark → UTF-8", source: .utf16ExternalPlainText, destination: .utf8PlainText,
            iconv: ("UTF-16", "UTF-8")),
        Case(
            name: "UTF-8 → UTF-16LE", source: .utf8PlainText, destination: .utf16PlainText,
            iconv: ("UTF-8", "UTF-16LE")),
        Case(
            name: "UTF-16LE → UTF-8", source: .utf16PlainText, destination: .utf8PlainText,
            iconv: ("UTF-16LE", "UTF-8")),
        Case(
            name: "Latin-1 → UTF-8", source: .latin1PlainText, destination: .utf8PlainText,
            iconv: ("ISO-8859-1", "UTF-8")),
        Case(
            name: "UTF-8 → Latin-1", source: .utf8PlainText, destination: .latin1PlainText,
            iconv: ("UTF-8", "ISO-8859-1")),
        Case(name: "HTML → text", source: .html, destination: .utf8PlainText),
        Case(name: "RTF → text", source: .rtf, destination: .utf8PlainText),
        Case(name: "text/uri-list → newline list", source: .uriList, destination: .utf8PlainText),
        Case(name: "PNG → BMP", source: .png, destination: .bmp),
        Case(name: "BMP → PNG", source: .bmp, destination: .png),
    ]

    static func run(_ configuration: RunConfiguration) async -> [ResultRow] {
        let byteCount = configuration.quick ? 1 << 20 : 32 << 20
        let iconv = ["/usr/bin/iconv", "/bin/iconv"].first { FileManager.default.isExecutableFile(atPath: $0) }
        var rows: [ResultRow] = []
        for testCase in cases {
            let name = "convert: \(testCase.name)"
            do {
                rows.append(try await measure(testCase, name: name, byteCount: byteCount, iconv: iconv, configuration))
            } catch {
                rows.append(ResultRow(name, status: .error, note: "\(error)"))
            }
        }
        return rows
    }

    /// Input of about `byteCount` bytes of `type`: mixed-language text (Latin-1 only for Latin-1), as HTML or RTF
    /// markup, or a URL list.
    static func input(for type: UniformType, byteCount: Int) throws -> Data {
        let latin = "Größe café naïve façade — "
        let line = "The quick brown fox, \(latin)日本語のテキスト, Ελληνικά, emoji 😀.\n"
        func repeated(_ text: String) -> String {
            String(repeating: text, count: max(1, byteCount / max(1, text.utf8.count)))
        }
        switch type {
        case .utf8PlainText: return Data(repeated(line).utf8)
        case .utf16ExternalPlainText, .utf16PlainText:
            let text = repeated(line)
            let units = Array(text.utf16)
            var bytes: [UInt8] = type == .utf16ExternalPlainText ? [0xFF, 0xFE] : []
            bytes.reserveCapacity(units.count * 2 + 2)
            for unit in units { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
            return Data(bytes)
        case .latin1PlainText:
            return Data(
                repeated("Größe café naïve façade, plain ASCII words too.\n").unicodeScalars.map { UInt8($0.value) })
        case .html:
            return Data(
                repeated("<div class=\"row\"><p>The <b>quick</b> brown &amp; fox &eacute; \(latin)</p><br></div>\n")
                    .utf8)
        case .rtf:
            return Data(
                ("{\\rtf1\\ansi " + repeated("The \\b quick\\b0  brown fox caf\\'e9 \\u8364? \\par\n") + "}").utf8)
        case .png, .bmp:
            let image = try ImagingBenchmark.testImage(quick: byteCount < 32 << 20)
            return image.encoded(as: type == .png ? .png : .bmp)
        default:
            return Data(repeated("file:///home/user/Documents/report%20final.pdf\r\n").utf8)
        }
    }

    static func measure(
        _ testCase: Case, name: String, byteCount: Int, iconv: String?, _ configuration: RunConfiguration
    ) async throws -> ResultRow {
        guard
            let converter = TransferConverter.builtIn.first(where: {
                $0.source == testCase.source && $0.destination == testCase.destination
            })
        else { throw BenchmarkError("no built-in converter \(testCase.source) → \(testCase.destination)") }
        // Text that Latin-1 can hold, when it is the destination: iconv fails on any other (TransferKit writes `?`),
        // so both sides do the same work.
        let data =
            testCase.destination == .latin1PlainText
            ? Data(
                String(
                    String.UnicodeScalarView(
                        try input(for: .latin1PlainText, byteCount: byteCount).map(Unicode.Scalar.init))
                ).utf8)
            : try input(for: testCase.source, byteCount: byteCount)
        // Copied once into chunks of their own (a stream's chunks start at index 0), outside the timed runs.
        let chunks = stride(from: 0, to: data.count, by: 1 << 20).map {
            Data(data[$0..<min(data.count, $0 + (1 << 20))])
        }
        let megabytes = Double(data.count) / 1e6
        // Each side returns its time in seconds (a cost, as PairedSamples wants); the rows show the rates.
        let rate = { (seconds: Double) in megabytes / seconds }
        func project() async throws -> Double {
            let started = MonotonicClock.now()
            var total = 0
            for try await chunk in converter.convert(TransferByteStream(chunks: chunks)) {
                total += chunk.count
            }
            guard total > 0 || data.isEmpty else { throw BenchmarkError("\(name) produced nothing") }
            return MonotonicClock.elapsed(since: started) / 1e9
        }
        let pairs = configuration.quick ? 3 : 9
        guard let iconv, let (from, to) = testCase.iconv else {
            var samples: [Double] = []
            for _ in 0..<pairs { samples.append(try await project()) }
            return ResultRow(
                name, unit: "MB/s", project: Summary(lowerIsBetter: samples).mapped(rate),
                note: "\(Format.number(megabytes)) MB in 1 MiB chunks; no reference tool on the machine does this.")
        }
        let directory = try TemporaryDirectory()
        let path = directory.path + "/input"
        try data.write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        let devNull = try Spawn.openFile("/dev/null", writing: true)
        defer { Syscall.close(devNull) }
        func baseline() throws -> Double {
            let (nanoseconds, exit) = try Spawn.run(iconv, ["-f", from, "-t", to, path], output: devNull)
            guard exit == 0 else { throw BenchmarkError("iconv -f \(from) -t \(to) exited with \(exit)") }
            return nanoseconds / 1e9
        }
        let samples = try await PairedRunner.alternate(pairs: pairs, project: project, baseline: baseline)
        return ResultRow(
            name, unit: "MB/s", project: Summary(lowerIsBetter: samples.project).mapped(rate),
            baselineName: "iconv -f \(from) -t \(to)", baseline: Summary(lowerIsBetter: samples.baseline).mapped(rate),
            ratio: samples.medianRateRatio, ratioMeaning: "throughput", target: .ratioAtLeast(1),
            note:
                "\(Format.number(megabytes)) MB in 1 MiB chunks in process; iconv reads the file, output to /dev/null.")
    }
}
