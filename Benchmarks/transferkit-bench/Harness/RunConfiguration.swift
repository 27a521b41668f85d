/// How long and how often benchmarks run: the full run, or the smoke run of `--quick`.
struct RunConfiguration: Sendable {
    /// Whether this is the `--quick` smoke run.
    var quick: Bool
    /// How long to run an operation before measuring it, in nanoseconds.
    var warmupNanoseconds: Double
    /// How long one timed batch of a fast operation should take, in nanoseconds.
    var sampleNanoseconds: Double
    /// How many project/baseline sample pairs a fast operation gets.
    var microPairs: Int
    /// How many pairs a process-start benchmark gets.
    var processPairs: Int
    /// How many pairs a long streaming benchmark gets.
    var streamingPairs: Int
    /// The size of the file streamed through the pipeline benchmark, in bytes.
    var streamingBytes: Int
    /// How many models the small-item archive benchmark writes and reads.
    var smallItemCount: Int
    /// How many times the MIME database is imported into a fresh catalogue.
    var importRuns: Int

    /// The full run: the figures to quote.
    static let full = RunConfiguration(
        quick: false, warmupNanoseconds: 300e6, sampleNanoseconds: 20e6, microPairs: 31, processPairs: 41,
        streamingPairs: 5, streamingBytes: 2 << 30, smallItemCount: 100_000, importRuns: 15)

    /// The smoke run for CI: every benchmark runs, briefly; the figures mean little.
    static let quick = RunConfiguration(
        quick: true, warmupNanoseconds: 30e6, sampleNanoseconds: 4e6, microPairs: 7, processPairs: 9,
        streamingPairs: 3, streamingBytes: 64 << 20, smallItemCount: 10_000, importRuns: 3)
}
