import Foundation
import TransferImaging
import TransferKitPlatform

/// Benchmark 8 (issue 25): TransferImaging's zlib and PNG codec against Python's `zlib` (the C library) on the same
/// bytes, in MB/s; reported, no target. The image is 1024 × 768 RGBA, a gradient with noise in its low bits.
enum ImagingBenchmark {
    static let python = "/usr/bin/python3"

    /// The benchmark's image: 1024 × 768 RGBA (1024 × 192 with `--quick`), a gradient with noise in its low bits and
    /// half of it translucent.
    static func testImage(quick: Bool) throws -> RGBAImage {
        let (width, height, pixels) = testPixels(quick: quick)
        return try RGBAImage(width: width, height: height, pixels: pixels)
    }

    private static func testPixels(quick: Bool) -> (width: Int, height: Int, pixels: [UInt8]) {
        let width = 1024
        let height = quick ? 192 : 768
        var generator = SplitMix(seed: 25)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let at = (y * width + x) * 4
                let noise = Int(generator.next() & 7)
                pixels[at] = UInt8((x + noise) & 255)
                pixels[at + 1] = UInt8((y + noise) & 255)
                pixels[at + 2] = UInt8((x ^ y) & 255)
                pixels[at + 3] = x < width / 2 ? 255 : UInt8(y & 255)
            }
        }
        return (width, height, pixels)
    }

    static func run(_ configuration: RunConfiguration) async -> [ResultRow] {
        let (width, height, pixels) = testPixels(quick: configuration.quick)
        guard FileManager.default.isExecutableFile(atPath: python) else {
            return [ResultRow("imaging", status: .unavailable, note: "no \(python) for the zlib baseline")]
        }
        do {
            let image = try RGBAImage(width: width, height: height, pixels: pixels)
            let png = image.encoded(as: .png)
            let stream = Deflate.zlib(pixels)
            let megabytes = Double(pixels.count) / 1e6
            let pairs = configuration.quick ? 3 : 7
            let inflate = "zlib.decompress(data)"
            let deflate = "zlib.compress(data, 6)"
            let cases:
                [(name: String, input: [UInt8], python: String, baseline: String, note: String, run: () throws -> Void)] =
                    [
                        (
                            "zlib inflate", stream, inflate, "Python zlib.decompress (C zlib)",
                            "\(stream.count) bytes inflating to \(pixels.count) (the image's RGBA, our deflate)",
                            { _ = try Inflate.zlib(stream, maximumOutputCount: pixels.count) }
                        ),
                        (
                            "zlib deflate", pixels, deflate, "Python zlib.compress level 6 (C zlib)",
                            "\(pixels.count) bytes to \(stream.count) (fixed Huffman codes; C zlib's dynamic codes compress more)",
                            { _ = Deflate.zlib(pixels) }
                        ),
                        (
                            "PNG decode", stream, inflate, "Python zlib.decompress of the raw RGBA (inflate only)",
                            "a \(width)×\(height) RGBA PNG of \(png.count) bytes: inflate, unfilter, expand; PIL is not "
                                + "installed, so the baseline is inflate alone",
                            { _ = try RGBAImage(decoding: png, as: .png) }
                        ),
                        (
                            "PNG encode", pixels, deflate, "Python zlib.compress level 6 of the raw RGBA",
                            "filter choice per row, then deflate; PIL is not installed, so the baseline is deflate alone",
                            { _ = image.encoded(as: .png) }
                        ),
                    ]
            var rows: [ResultRow] = []
            for item in cases {
                let samples = try await compare(
                    pairs: pairs, file: Data(item.input), pythonOperation: item.python, item.run)
                rows.append(
                    row(
                        megabytes: megabytes, "imaging: \(item.name)", samples, baseline: item.baseline, note: item.note
                    ))
            }
            return rows
        } catch {
            return [ResultRow("imaging", status: .error, note: "\(error)")]
        }
    }

    /// MB/s of ours and of Python's operation on `file`, alternately, `pairs` times.
    private static func compare(
        pairs: Int, file: Data, pythonOperation: String, _ operation: () throws -> Void
    ) async throws -> PairedSamples {
        let folder = try TemporaryDirectory()
        let path = folder.path + "/input"
        try file.write(to: URL(fileURLWithPath: path))
        let script = """
            import sys, time, zlib
            data = open(sys.argv[1], 'rb').read()
            n = 3
            start = time.perf_counter()
            for _ in range(n):
                \(pythonOperation)
            print((time.perf_counter() - start) / n * 1e9)
            """
        return try await PairedRunner.alternate(
            pairs: pairs,
            project: {
                let start = MonotonicClock.now()
                try operation()
                return MonotonicClock.elapsed(since: start)
            },
            baseline: {
                let result = try await ChildProcess.run(python, arguments: ["-c", script, path])
                guard result.status == 0,
                    let nanoseconds = Double(result.outputText.trimmingCharacters(in: .whitespacesAndNewlines))
                else {
                    throw BenchmarkError("python3 failed: \(result.errorText)")
                }
                return nanoseconds
            })
    }

    /// A row in MB/s of the image's RGBA bytes, from nanoseconds per operation.
    private static func row(
        megabytes: Double, _ name: String, _ samples: PairedSamples, baseline: String, note: String
    ) -> ResultRow {
        let rate = { (nanoseconds: [Double]) in nanoseconds.map { megabytes / ($0 / 1e9) } }
        return ResultRow(
            name, unit: "MB/s", project: Summary(higherIsBetter: rate(samples.project)), baselineName: baseline,
            baseline: Summary(higherIsBetter: rate(samples.baseline)), ratio: samples.medianRateRatio,
            ratioMeaning: "throughput", note: note)
    }
}
