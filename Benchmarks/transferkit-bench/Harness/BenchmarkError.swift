/// A benchmark that could not run: a missing binary, a failed child process, a wrong result.
struct BenchmarkError: Error, CustomStringConvertible {
    /// What went wrong and what to do about it.
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
