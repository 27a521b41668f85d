/// The benchmarks that wait for parts of the project still being built on other branches.
enum PendingBenchmarks {
    static func run(_ configuration: RunConfiguration) async -> [ResultRow] {
        [
            ResultRow(
                "archive: pack | extract throughput", status: .unavailable, target: "≥ 0.50×",
                note: "Needs `transferkit pack` and `extract` (branch cli)."),
            ResultRow(
                "archive: peak RSS per process", status: .unavailable, target: "worst ≤ 64 MiB",
                note: "Needs `transferkit pack` and `extract` (branch cli)."),
            ResultRow(
                "archive: small items round trip", status: .unavailable,
                note: "Needs TransferArchiveWriter and TransferArchiveReader (branch archive)."),
        ]
    }
}
