/// The command line: `transferkit-bench [--quick] [--json OUT] [--compare OLD] [--only NAME]`.
struct Options: Sendable {
    /// Whether to run the short smoke run.
    var quick = false
    /// Where to write the JSON report, if anywhere.
    var jsonPath: String?
    /// A previous run's JSON report to print the changes against, if any.
    var comparePath: String?
    /// The suites to run (all when empty), e.g. for profiling one with `perf record`.
    var only: [String] = []
    /// Whether to print the usage and stop.
    var showHelp = false

    static let usage = """
        USAGE: transferkit-bench [--quick] [--json OUT] [--compare OLD.json] [--only NAME]

        Measures TransferKit against baselines run alternately in the same process, and prints a table of
        best and median figures, ratios and targets. Build in release mode, with the tool linked as released
        (the Swift runtime statically; `swift run` has no flag for that):
          Scripts/release.sh bench [OPTIONS]
        or, the tool linked dynamically: swift run -c release transferkit-bench [OPTIONS]

        OPTIONS:
          --quick      A smoke run that finishes in under a minute (for CI; the figures mean little).
          --json OUT   Also write the results as JSON to OUT.
          --compare OLD.json
                       After the table, print each row's change against OLD.json, the
                       --json report of an earlier run.
          --only NAME  Run only this suite (repeatable): provider, stream, items, types,
                       progress, cli, scale, coder, clipboard, imaging, convert, sessions.
          -h, --help   Show this help.

        The exit code is 0 when the benchmarks ran, even if targets were missed; 1 when one could not run;
        2 for a bad command line.
        """

    /// A command line that could not be understood.
    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    /// Parses the arguments (without the program name).
    init(arguments: [String]) throws {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--quick":
                quick = true
            case "--json":
                guard let path = remaining.popFirst(), !path.isEmpty else {
                    throw UsageError(description: "--json needs a file name, such as --json bench.json")
                }
                jsonPath = path
            case "--compare":
                guard let path = remaining.popFirst(), !path.isEmpty else {
                    throw UsageError(description: "--compare needs a file name, such as --compare old.json")
                }
                comparePath = path
            case "--only":
                guard let name = remaining.popFirst(), !name.isEmpty else {
                    throw UsageError(description: "--only needs a suite name, such as --only provider")
                }
                only.append(name)
            case "-h", "--help":
                showHelp = true
            default:
                throw UsageError(description: "unknown argument '\(argument)'")
            }
        }
    }
}
