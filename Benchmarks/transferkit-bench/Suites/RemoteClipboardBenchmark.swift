import Foundation
import TransferKitPlatform
import TransferKitTestSupport

/// Benchmark 13: another machine's clipboard through ssh (issue 39), against the obvious commands on the same link: a
/// private Xvfb stands for the far machine's display, reached only through a loopback sshd with a key made for the
/// run (the same `LoopbackSSHD` as the tests'); rows say `n/a` when OpenSSH, Xvfb or xclip is missing.
///
/// Three rows: `transferkit paste --from ssh://…` of a 14-byte text against `ssh … xclip -o` (each a whole process,
/// ssh's login included); one 256 MiB paste (16 MiB with `--quick`) against `ssh … cat FILE` of the file the far
/// clipboard serves; and the CPU time an idle `transferkit sync` costs over a minute (10 s with `--quick`), with
/// every process it keeps (its ssh, the far `watch`), which should be about nothing: it waits for events, never polls.
enum RemoteClipboardBenchmark {
    static func run(_ configuration: RunConfiguration) async -> [ResultRow] {
        let small = "remote paste (ssh): 14 bytes"
        let large = "remote paste (ssh): \(ClipboardBenchmark.largeSize(configuration) >> 20) MiB"
        let idle = "remote sync (ssh): idle CPU"
        guard LoopbackSSHD.isAvailable, FileManager.default.isExecutableFile(atPath: "/usr/bin/Xvfb"),
            FileManager.default.isExecutableFile(atPath: "/usr/bin/xclip")
        else {
            let note = "needs OpenSSH, Xvfb and xclip (apt-get install -y openssh-server openssh-client xvfb xclip)"
            return [
                ResultRow(small, status: .unavailable, target: "≤ 1.20×", note: note),
                ResultRow(large, status: .unavailable, target: "≥ 0.80×", note: note),
                ResultRow(idle, status: .unavailable, target: "worst ≤ 60 ms", note: note),
            ]
        }
        do {
            return try await rows(configuration, names: (small, large, idle))
        } catch {
            return [
                ResultRow(small, status: .error, target: "≤ 1.20×", note: "\(error)"),
                ResultRow(large, status: .error, target: "≥ 0.80×", note: "\(error)"),
                ResultRow(idle, status: .error, target: "worst ≤ 60 ms", note: "\(error)"),
            ]
        }
    }

    private static func rows(
        _ configuration: RunConfiguration, names: (small: String, large: String, idle: String)
    ) async throws -> [ResultRow] {
        let tool = try ProductsDirectory.executable("transferkit")
        let directory = try TemporaryDirectory()
        let server = try await DisplayServer.xvfb(directory: directory)
        defer { server.stop() }
        let sshd = try await LoopbackSSHD(directory: URL(fileURLWithPath: directory.path))
        let display = server.environment["DISPLAY"] ?? ""
        // The far side's programs get the far display, as a login there would have it.
        let farTool = "env DISPLAY=\(display) \(tool)"
        var near = ProcessInfo.processInfo.environment
        for name in ["DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY"] { near.removeValue(forKey: name) }
        near["TRANSFERKIT_SSH"] = sshd.sshCommand.joined(separator: " ")
        near["TRANSFERKIT_REMOTE_PROGRAM"] = farTool
        let location = "ssh://\(sshd.user)@127.0.0.1:\(sshd.port)"
        let ssh = (sshd.sshCommand[0], Array(sshd.sshCommand.dropFirst()) + ["-l", sshd.user, "127.0.0.1"])

        let textFile = directory.path + "/text.txt"
        try Data(ClipboardBenchmark.text.utf8).write(to: URL(fileURLWithPath: textFile))
        let pasted = directory.path + "/pasted.txt"
        _ = try ClipboardBenchmark.runChecked(
            (tool, ["copy", textFile, "--type", ClipboardBenchmark.textType]), environment: server.environment,
            input: "/dev/null", output: "/dev/null", directory)
        let project = (tool, ["paste", "--from", location, "--type", ClipboardBenchmark.textType])
        let baseline = (ssh.0, ssh.1 + ["env", "DISPLAY=\(display)", "xclip", "-o", "-selection", "clipboard"])
        for command in [project, baseline] {
            _ = try ClipboardBenchmark.runChecked(
                command, environment: near, input: "/dev/null", output: pasted, directory)
            let back = (try? String(contentsOfFile: pasted, encoding: .utf8)) ?? ""
            guard back == ClipboardBenchmark.text else {
                throw BenchmarkError("\(command.0) pasted '\(back)', not '\(ClipboardBenchmark.text)'")
            }
        }
        let small = try await PairedRunner.alternate(
            pairs: configuration.quick ? 5 : 21,
            project: {
                try ClipboardBenchmark.runChecked(
                    project, environment: near, input: "/dev/null", output: pasted, directory)
            },
            baseline: {
                try ClipboardBenchmark.runChecked(
                    baseline, environment: near, input: "/dev/null", output: pasted, directory)
            })

        let largeFile = directory.path + "/large.bin"
        let byteCount = ClipboardBenchmark.largeSize(configuration)
        try TestFile.create(path: largeFile, byteCount: byteCount)
        defer { unlink(largeFile) }
        _ = try ClipboardBenchmark.runChecked(
            (tool, ["copy", largeFile, "--type", ClipboardBenchmark.dataType]), environment: server.environment,
            input: "/dev/null", output: "/dev/null", directory)
        let large = try await PairedRunner.alternate(
            pairs: configuration.quick ? 1 : 3,
            project: {
                try ClipboardBenchmark.runChecked(
                    (tool, ["paste", "--from", location, "--type", ClipboardBenchmark.dataType]), environment: near,
                    input: "/dev/null", output: "/dev/null", directory)
            },
            baseline: {
                try ClipboardBenchmark.runChecked(
                    (ssh.0, ssh.1 + ["cat", largeFile]), environment: near, input: "/dev/null", output: "/dev/null",
                    directory)
            })
        let throughput = { (milliseconds: Double) in Double(byteCount) / milliseconds / 1e3 }

        // An idle sync between a second display here and the far one.
        let here = try await DisplayServer.xvfb(directory: directory)
        defer { here.stop() }
        var syncEnvironment = near
        syncEnvironment["DISPLAY"] = here.environment["DISPLAY"]
        let window = configuration.quick ? 10 : 60
        let idleCPU = try await idleSyncCPU(
            tool: tool, location: location, environment: syncEnvironment, seconds: window, port: sshd.port)
        return [
            ResultRow(
                names.idle, unit: "ms", project: Summary(lowerIsBetter: [idleCPU]), target: .worstAtMost(60),
                note: "CPU time (user + system) of transferkit sync ssh://… and the processes it keeps (its ssh, the "
                    + "far watch --json and its sshd session) over \(window) s without a copy on either side, after a "
                    + "2 s start."),
            ResultRow(
                names.small, unit: "ms", project: Summary(lowerIsBetter: small.project),
                baselineName: "ssh host xclip -o", baseline: Summary(lowerIsBetter: small.baseline),
                ratio: small.medianCostRatio, ratioMeaning: "time", target: .ratioAtMost(1.2),
                note: "transferkit paste --from ssh://… of a 14-byte text that transferkit copy holds on the far "
                    + "display, against ssh … xclip -o of the same; both whole processes through one loopback sshd "
                    + "(login, key exchange and the far process included)."),
            ResultRow(
                names.large, unit: "MB/s", project: Summary(lowerIsBetter: large.project).mapped(throughput),
                baselineName: "ssh host cat FILE", baseline: Summary(lowerIsBetter: large.baseline).mapped(throughput),
                ratio: large.medianRateRatio, ratioMeaning: "throughput", target: .ratioAtLeast(0.8),
                note: "paste --from ssh://… --type public.data to /dev/null of a \(byteCount >> 20) MiB file that "
                    + "transferkit copy serves on the far display (the far serve reads it through the copy's session "
                    + "offer, from a passed descriptor), against ssh … cat of the same file to /dev/null."),
        ]
    }

    /// Starts `transferkit sync`, lets it settle for 2 s, and returns the CPU time in milliseconds that it and the
    /// processes of its link (every process whose command line names `port`, or is a `watch --json`, with their
    /// sshd sessions) spend over the next `seconds`.
    private static func idleSyncCPU(
        tool: String, location: String, environment: [String: String], seconds: Int, port: Int
    ) async throws -> Double {
        let input = try Spawn.openFile("/dev/null")
        defer { Syscall.close(input) }
        let pid = try ClipboardBenchmark.spawn(
            (tool, ["sync", location]), environment: environment, input: input, output: input, errors: input)
        defer {
            kill(pid, SIGTERM)
            _ = try? Spawn.wait(pid, name: "transferkit sync")
        }
        try await Task.sleep(for: .seconds(2))
        func linked() -> [Int32] {
            let markers = ["\(port)", "watch\u{0}--json", "sshd: "]
            return Syscall.directoryEntries(atPath: "/proc").compactMap { entry -> Int32? in
                guard let candidate = Int32(entry),
                    let commandLine = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
                else { return nil }
                let text = String(decoding: commandLine, as: UTF8.self)
                return candidate == pid || markers.contains(where: text.contains) ? candidate : nil
            }
        }
        func cpuTicks(_ pids: [Int32]) -> Int {
            pids.reduce(0) { total, pid in
                guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                    let close = stat.lastIndex(of: ")")
                else { return total }
                // After the command's name: state is field 3; utime and stime are fields 14 and 15.
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return total }
                return total + user + system
            }
        }
        let processes = linked()
        let before = cpuTicks(processes)
        try await Task.sleep(for: .seconds(seconds))
        let after = cpuTicks(processes)
        guard kill(pid, 0) == 0 else { throw BenchmarkError("transferkit sync ended while idle") }
        return Double(after - before) * 1000 / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
