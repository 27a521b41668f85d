import Foundation
import TransferKit
import TransferKitPlatform
import UniformTypes

/// Part of benchmark 2: a provider whose stream representation is as large as the streamed file, written into an
/// archive on a pipe to `cat` by a child copy of this benchmark, against the same child writing the same chunks raw;
/// wall time and, through GNU time, the writing child's peak RSS.
enum StreamProviderBenchmark {
    /// The first argument that makes this executable the child instead of the benchmark.
    static let childFlag = "--stream-provider-child"

    /// The size of each chunk the child's stream yields.
    static let chunkSize = 1 << 20

    static func run(
        _ configuration: RunConfiguration, cat: String, directory: TemporaryDirectory
    ) async -> [ResultRow] {
        let name = "provider: stream into archive | cat"
        do {
            let benchmark = try ProductsDirectory.executable("transferkit-bench")
            let bytes = String(configuration.streamingBytes)
            var peaks: [Double] = []
            var rawPeaks: [Double] = []
            func child(_ mode: String, into samples: inout [Double]) throws -> Double {
                let run = try StreamingBenchmark.pipeline(
                    (benchmark, [childFlag, mode, bytes]), (cat, []), input: "/dev/null", output: "/dev/null",
                    directory: directory)
                samples += [run.firstPeakMiB].compactMap { $0 }
                return run.nanoseconds
            }
            let samples = try await PairedRunner.alternate(
                pairs: configuration.streamingPairs, warmup: false,
                project: { try child("archive", into: &peaks) },
                baseline: { try child("raw", into: &rawPeaks) })
            let rate = { (nanoseconds: Double) in Double(configuration.streamingBytes) / nanoseconds * 1e3 }
            let size = "\(configuration.streamingBytes >> 20) MiB"
            var rows = [
                ResultRow(
                    name, unit: "MB/s", project: Summary(lowerIsBetter: samples.project).mapped(rate),
                    baselineName: "same chunks, write(2)",
                    baseline: Summary(lowerIsBetter: samples.baseline).mapped(rate), ratio: samples.medianRateRatio,
                    ratioMeaning: "throughput", target: nil,
                    note: "A child process registers a \(size) stream representation (a TransferByteStream of one "
                        + "1 MiB Data yielded again and again, so producing chunks costs nothing) and writes the "
                        + "provider with TransferArchiveWriter.write(providers:) to a default pipe read by cat > "
                        + "/dev/null; the baseline child writes the same chunks to the same kind of pipe with write(2). "
                        + "Both times include process start.")
            ]
            if !peaks.isEmpty {
                rows.append(
                    ResultRow(
                        "provider: peak RSS of stream into archive", unit: "MiB",
                        project: Summary(lowerIsBetter: peaks), baselineName: "same chunks, write(2)",
                        baseline: Summary(lowerIsBetter: rawPeaks), target: .worstAtMost(64),
                        note: "Peak RSS of each writing child above, from /usr/bin/time -f %M: the writer holds one "
                            + "chunk at a time, so it stays flat however large the stream."))
            }
            return rows
        } catch {
            return [ResultRow(name, status: .error, target: "—", note: "\(error)")]
        }
    }

    /// The child: `transferkit-bench --stream-provider-child archive|raw BYTES` writes BYTES to standard output,
    /// as an archive of one provider with a stream representation, or raw.
    static func child(_ arguments: [String]) async -> Int32 {
        guard arguments.count == 2, let total = Int(arguments[1]), total >= 0,
            arguments[0] == "archive" || arguments[0] == "raw"
        else {
            BenchmarkProgram.printError("usage: transferkit-bench \(childFlag) archive|raw BYTES")
            return 2
        }
        let chunks = RepeatedChunk(
            chunk: Data((0..<chunkSize).map { UInt8(truncatingIfNeeded: $0 &* 131) }), total: total)
        do {
            if arguments[0] == "raw" {
                for try await chunk in chunks {
                    let written = chunk.withUnsafeBytes { bytes in
                        Result { () throws(SystemError) in try Syscall.write(1, bytes) }
                    }
                    try written.get()
                }
            } else {
                let provider = TransferProvider()
                provider.registerStreamRepresentation(for: .movie) { _ in
                    TransferByteStream(length: UInt64(total), chunks)
                }
                var writer = TransferArchiveWriter(fileDescriptor: 1)
                try await writer.write(providers: [provider])
            }
            return 0
        } catch {
            BenchmarkProgram.printError("transferkit-bench \(childFlag): \(error)")
            return 1
        }
    }
}

/// `total` bytes as one chunk yielded again and again (the last one cut short).
private struct RepeatedChunk: AsyncSequence, Sendable {
    typealias Element = Data
    let chunk: Data
    let total: Int

    func makeAsyncIterator() -> Iterator { Iterator(chunk: chunk, remaining: total) }

    struct Iterator: AsyncIteratorProtocol {
        let chunk: Data
        var remaining: Int

        mutating func next() async -> Data? {
            guard remaining > 0 else { return nil }
            let count = Swift.min(remaining, chunk.count)
            remaining -= count
            return count == chunk.count ? chunk : chunk.prefix(count)
        }
    }
}
