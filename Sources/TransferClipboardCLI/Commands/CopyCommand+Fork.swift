import TransferKitCLI
import TransferKitPlatform

/// The background copy of `transferkit copy`, started by `fork(2)` before the tool does anything else, so that a copy
/// costs one process start, not two.
///
/// `copy` returns only once the clipboard is the tool's, and a background copy keeps serving it. That copy used to be
/// a second run of the executable (`posix_spawn` of the same 90 MB image: its page faults, its relocations and the
/// runtime's first-use work again). A `fork` made while the process has one thread needs none of that: the child
/// continues from here as the serving copy, and this process only waits for its readiness line, as `xclip` and
/// `wl-copy` do. The guarantees stay those of `transferkit copy`: the child leads a session of its own (a terminal's
/// hang-up does not end it), starts with default signal handling and no blocked signals, reads a piped standard input
/// that was spooled to an unlinked file first (so the writer of the pipe never waits on it), and its failure before
/// it owns the clipboard is this process's failure, with its message and status.
public enum CopyCommandFork {
    /// Forks the serving copy when the command line is a background `transferkit copy` and the process has one
    /// thread, and then, in this process, waits for it and exits: 0 once the child owns the clipboard, else the
    /// child's status (1 if it ended with 0 unready) after relaying what it printed to standard error. Returns, doing
    /// nothing, for any other command line (`--foreground`, `--terminal`, `--help`), in the serving copy itself, when
    /// the process already has threads, and when `fork` fails; `copy` then starts its copy the old way.
    ///
    /// Call it first in `main`, before any other work: a fork is safe only while a single thread exists, which is
    /// checked (`/proc/self/status`), not assumed. ``noForkVariable`` set to anything turns the fork off.
    public static func forkServingCopyIfAsked() {
        let arguments = CommandLine.arguments
        guard arguments.count > 1, arguments[1] == "copy",
            !arguments.dropFirst(2).contains(where: { ["--foreground", "--terminal", "--help", "-h"].contains($0) }),
            Syscall.environmentValue(CopyCommand.servingMarker) == nil, Syscall.environmentValue(noForkVariable) == nil,
            isSingleThreaded()
        else { return }
        if arguments.dropFirst(2).contains("-"), !spoolStandardInput() { return }
        guard let ends = try? Syscall.makePipe() else { return }
        guard let pid = Syscall.fork() else {
            Syscall.close(ends.read)
            Syscall.close(ends.write)
            return
        }
        if pid == 0 {
            becomeServingCopy(report: ends.write, unused: ends.read)
            return
        }
        Syscall.close(ends.write)
        Syscall.exitProcess(awaitReadiness(of: pid, from: ends.read))
    }

    /// `TRANSFERKIT_COPY_NO_FORK`: when set, `copy` starts its serving copy by running the executable again, as it
    /// does when the process has threads already (for diagnosis, and so that the tests and the benchmark reach that
    /// path and compare the two).
    public static let noForkVariable = "TRANSFERKIT_COPY_NO_FORK"

    /// Whether the process has exactly one thread (`Threads:` of `/proc/self/status`); `false` when it cannot tell.
    static func isSingleThreaded() -> Bool {
        guard let status = Syscall.readToEnd(atPath: "/proc/self/status", limit: 1 << 20) else { return false }
        // The bytes' lines, not the text's: splitting the decoded text into `Character`s was a third of the
        // instructions this process runs before it forks.
        let line = Array("Threads:\t1".utf8)
        return status.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).contains {
            $0.elementsEqual(line)
        }
    }

    /// Puts a piped standard input into an unlinked file, rewound, as standard input: the serving copy reads it at
    /// each paste, long after the writer has finished. `true` when standard input is a file already or was spooled;
    /// `false` when spooling failed (then the tool reports it the old way).
    private static func spoolStandardInput() -> Bool {
        guard let input = try? InputFile(path: "-") else { return false }
        if input.size != nil { return true }
        guard let spooled = try? Spool.toTemporaryFile(input) else { return false }
        return Syscall.duplicate(spooled.fileDescriptor, onto: 0)
    }

    /// The child's side: a session of its own, standard output and error into the report pipe, default signals,
    /// and the marker that makes `CopyCommand` serve and print `ready`.
    private static func becomeServingCopy(report: Int32, unused: Int32) {
        Syscall.close(unused)
        Syscall.startSession()
        Syscall.duplicate(report, onto: 1)
        Syscall.duplicate(report, onto: 2)
        if report > 2 { Syscall.close(report) }
        Syscall.restoreDefaultSignals()
        Syscall.setEnvironmentValue("1", for: CopyCommand.servingMarker)
    }

    /// The parent's side: reads the child's report until `ready`, or until it ends (then the child has failed or
    /// exited). Returns the status to exit with.
    private static func awaitReadiness(of pid: Int32, from report: Int32) -> Int32 {
        let ready = Array("ready\n".utf8)
        var said: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !said.starts(with: ready) {
            guard let count = try? Syscall.read(report, into: &buffer), count > 0 else { break }
            said += buffer[..<count]
        }
        Syscall.close(report)
        if said.starts(with: ready) { return 0 }
        let status = (try? ChildProcess.waitForExit(pid, executable: CommandLine.arguments.first ?? "transferkit")) ?? 1
        said.withUnsafeBytes { try? Syscall.write(2, $0) }
        return status == 0 ? 1 : status
    }
}
