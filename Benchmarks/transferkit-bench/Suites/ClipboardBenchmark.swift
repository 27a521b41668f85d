import Foundation
import TransferKitPlatform

/// Benchmark 9: the clipboard as whole processes, against the stock tools on a display server of its own — a private
/// Xvfb (`xclip`) and a private headless sway (`wl-copy`, `wl-paste`); a row says `n/a` when its programs are missing.
///
/// Two rows per protocol: `transferkit copy` then `transferkit paste` of a 14-byte text (each process spawned and
/// reaped; the copy returns once its background copy owns the selection, as the stock tools' do) against the stock
/// pair; and the throughput of one 256 MiB paste (16 MiB with `--quick`) from a copy of the same tool.
enum ClipboardBenchmark {
    static let text = "clipboard text"
    static let textType = "text/plain;charset=utf-8"
    static let dataType = "application/octet-stream"

    /// One protocol's display server and how each tool copies and pastes on it.
    struct Display {
        /// `X11` or `Wayland`.
        var name: String
        /// The stock tools, as the row names them.
        var stockName: String
        /// The environment of the display server's clients.
        var environment: [String: String]
        /// The stock copy of standard input offered as a MIME type.
        var stockCopy: (_ type: String) -> (String, [String])
        /// The stock paste of a MIME type to standard output.
        var stockPaste: (_ type: String) -> (String, [String])
        /// transferkit's arguments that pick this protocol.
        var backend: [String]
    }

    static func run(_ configuration: RunConfiguration) async -> [ResultRow] {
        var rows: [ResultRow] = []
        let small = "clipboard (X11): copy + paste 14 bytes"
        let large = "clipboard (X11): paste \(largeSize(configuration) >> 20) MiB"
        do {
            let tool = try ProductsDirectory.executable("transferkit")
            let directory = try TemporaryDirectory()
            rows += await x11Rows(tool: tool, directory: directory, configuration: configuration)
            rows += await waylandRows(tool: tool, directory: directory, configuration: configuration)
        } catch {
            rows += [
                ResultRow(small, status: .error, target: "≤ 1.50×", note: "\(error)"),
                ResultRow(large, status: .error, target: "≥ 1.00×", note: "\(error)"),
            ]
        }
        return rows
    }

    static func largeSize(_ configuration: RunConfiguration) -> Int {
        configuration.quick ? 16 << 20 : 256 << 20
    }

    // MARK: - Display servers

    private static func x11Rows(
        tool: String, directory: TemporaryDirectory, configuration: RunConfiguration
    ) async -> [ResultRow] {
        let needed = ["/usr/bin/Xvfb", "/usr/bin/xclip"]
        guard needed.allSatisfy({ FileManager.default.isExecutableFile(atPath: $0) }) else {
            return unavailableRows("X11", configuration, note: "needs Xvfb and xclip (apt-get install -y xvfb xclip)")
        }
        do {
            let server = try await DisplayServer.xvfb(directory: directory)
            defer { server.stop() }
            let xclip = "/usr/bin/xclip"
            let x11 = Display(
                name: "X11", stockName: "xclip", environment: server.environment,
                stockCopy: { (xclip, ["-selection", "clipboard", "-i", "-t", $0]) },
                stockPaste: { (xclip, ["-selection", "clipboard", "-o", "-t", $0]) }, backend: ["--backend", "x11"])
            return try await rows(x11, tool: tool, directory: directory, configuration: configuration)
        } catch {
            return errorRows("X11", configuration, note: "\(error)")
        }
    }

    private static func waylandRows(
        tool: String, directory: TemporaryDirectory, configuration: RunConfiguration
    ) async -> [ResultRow] {
        let needed = ["/usr/bin/sway", "/usr/bin/wl-copy", "/usr/bin/wl-paste", "/usr/bin/setpriv"]
        guard needed.allSatisfy({ FileManager.default.isExecutableFile(atPath: $0) }) else {
            return unavailableRows(
                "Wayland", configuration,
                note: "needs sway, wl-clipboard and setpriv (apt-get install -y sway wl-clipboard)"
            )
        }
        do {
            let server = try await DisplayServer.sway(directory: directory)
            defer { server.stop() }
            let wayland = Display(
                name: "Wayland", stockName: "wl-copy", environment: server.environment,
                stockCopy: { ("/usr/bin/wl-copy", ["--type", $0]) },
                stockPaste: { ("/usr/bin/wl-paste", ["--no-newline", "--type", $0]) },
                backend: ["--backend", "wayland"])
            return try await rows(wayland, tool: tool, directory: directory, configuration: configuration)
        } catch {
            return errorRows("Wayland", configuration, note: "\(error)")
        }
    }

    private static func names(_ protocolName: String, _ configuration: RunConfiguration) -> (String, String) {
        (
            "clipboard (\(protocolName)): copy + paste 14 bytes",
            "clipboard (\(protocolName)): paste \(largeSize(configuration) >> 20) MiB"
        )
    }

    private static func unavailableRows(
        _ protocolName: String, _ configuration: RunConfiguration, note: String
    ) -> [ResultRow] {
        let (small, large) = names(protocolName, configuration)
        return [
            ResultRow(small, status: .unavailable, target: "≤ 1.50×", note: note),
            ResultRow(large, status: .unavailable, target: "≥ 1.00×", note: note),
        ]
    }

    private static func errorRows(
        _ protocolName: String, _ configuration: RunConfiguration, note: String
    )
        -> [ResultRow]
    {
        let (small, large) = names(protocolName, configuration)
        return [
            ResultRow(small, status: .error, target: "≤ 1.50×", note: note),
            ResultRow(large, status: .error, target: "≥ 1.00×", note: note),
        ]
    }

    // MARK: - Rows

    private static func rows(
        _ display: Display, tool: String, directory: TemporaryDirectory, configuration: RunConfiguration
    ) async throws -> [ResultRow] {
        let (smallName, largeName) = names(display.name, configuration)
        let textFile = directory.path + "/text.txt"
        try Data(text.utf8).write(to: URL(fileURLWithPath: textFile))
        let pasted = directory.path + "/pasted.txt"
        let environment = display.environment

        let copyText = (tool, ["copy", "-", "--type", textType] + display.backend)
        let pasteText = (tool, ["paste", "--type", textType] + display.backend)
        // Once each, checked: both pairs give the text back.
        for (copy, paste) in [(copyText, pasteText), (display.stockCopy(textType), display.stockPaste(textType))] {
            _ = try runChecked(copy, environment: environment, input: textFile, output: "/dev/null", directory)
            _ = try runChecked(paste, environment: environment, input: "/dev/null", output: pasted, directory)
            let back = (try? String(contentsOfFile: pasted, encoding: .utf8)) ?? ""
            guard back == text else {
                throw BenchmarkError("\(paste.0) \(paste.1.joined(separator: " ")) pasted '\(back)', not '\(text)'")
            }
        }
        let small = try await PairedRunner.alternate(
            pairs: configuration.quick ? 5 : 21,
            project: {
                try runChecked(copyText, environment: environment, input: textFile, output: "/dev/null", directory)
                    + runChecked(pasteText, environment: environment, input: "/dev/null", output: pasted, directory)
            },
            baseline: {
                try runChecked(
                    display.stockCopy(textType), environment: environment, input: textFile, output: "/dev/null",
                    directory)
                    + runChecked(
                        display.stockPaste(textType), environment: environment, input: "/dev/null", output: pasted,
                        directory)
            })

        // The copy as a user types it, without --type: the type is sniffed from the bytes.
        let sniffedCopy = (tool, ["copy", "-"] + display.backend)
        let copyAlone = try await PairedRunner.alternate(
            pairs: configuration.quick ? 3 : 11,
            project: {
                try runChecked(sniffedCopy, environment: environment, input: textFile, output: "/dev/null", directory)
            },
            baseline: {
                try runChecked(
                    display.stockCopy(textType), environment: environment, input: textFile, output: "/dev/null",
                    directory)
            })

        let largeFile = directory.path + "/large.bin"
        let byteCount = largeSize(configuration)
        try TestFile.create(path: largeFile, byteCount: byteCount)
        defer { unlink(largeFile) }
        let large = try await PairedRunner.alternate(
            pairs: configuration.quick ? 1 : 3, warmup: false,
            project: {
                _ = try runChecked(
                    (tool, ["copy", largeFile, "--type", dataType] + display.backend), environment: environment,
                    input: "/dev/null", output: "/dev/null", directory)
                return try runChecked(
                    (tool, ["paste", "--type", dataType] + display.backend), environment: environment,
                    input: "/dev/null", output: "/dev/null", directory)
            },
            baseline: {
                _ = try runChecked(
                    display.stockCopy(dataType), environment: environment, input: largeFile, output: "/dev/null",
                    directory)
                return try runChecked(
                    display.stockPaste(dataType), environment: environment, input: "/dev/null", output: "/dev/null",
                    directory)
            })
        let throughput = { (milliseconds: Double) in Double(byteCount) / milliseconds / 1e3 }
        let stock = display.stockName == "xclip" ? "xclip -i + xclip -o" : "wl-copy + wl-paste"
        return [
            ResultRow(
                smallName, unit: "ms", project: Summary(lowerIsBetter: small.project), baselineName: stock,
                baseline: Summary(lowerIsBetter: small.baseline), ratio: small.medianCostRatio, ratioMeaning: "time",
                target: .ratioAtMost(1.5),
                note: "transferkit copy - --type \(textType) < 14-byte file, then transferkit paste --type "
                    + "\(textType), each spawned and reaped (the copy returns once its background copy owns the "
                    + "clipboard), against \(stock) of the same text and type, on a private "
                    + (display.name == "X11" ? "Xvfb." : "headless sway.")),
            ResultRow(
                "clipboard (\(display.name)): copy 14 bytes, type sniffed", unit: "ms",
                project: Summary(lowerIsBetter: copyAlone.project), baselineName: display.stockName + " with the type",
                baseline: Summary(lowerIsBetter: copyAlone.baseline), ratio: copyAlone.medianCostRatio,
                ratioMeaning: "time", target: nil,
                note: "Diagnostic: transferkit copy - < 14-byte file with no --type (the type sniffed from the bytes, "
                    + "as `echo … | transferkit copy -` does), against the stock copy told the type."),
            ResultRow(
                largeName, unit: "MB/s", project: Summary(lowerIsBetter: large.project).mapped(throughput),
                baselineName: display.stockName == "xclip" ? "xclip -o" : "wl-paste",
                baseline: Summary(lowerIsBetter: large.baseline).mapped(throughput), ratio: large.medianRateRatio,
                ratioMeaning: "throughput", target: .ratioAtLeast(1),
                note: "Only the paste is timed, to /dev/null, from a copy of the same tool serving a file of "
                    + "\(byteCount >> 20) MiB (transferkit copy FILE, which offers it as a session too, so paste "
                    + "reads it from a passed descriptor; the stock copy holds it in memory)."),
        ]
    }

    /// Starts `command` in `environment` with the given standard descriptors; returns its process id.
    static func spawn(
        _ command: (String, [String]), environment: [String: String], input: Int32, output: Int32, errors: Int32
    ) throws -> Int32 {
        do {
            return try ChildProcess.spawn(
                command.0, arguments: command.1, environment: environment, standardInput: input,
                standardOutput: output, standardError: errors)
        } catch {
            throw BenchmarkError("cannot start \(command.0): \(error)")
        }
    }

    /// Runs `command` to its end in `environment`; returns its wall time in milliseconds, or throws with what it
    /// printed when it fails.
    static func runChecked(
        _ command: (String, [String]), environment: [String: String], input: String, output: String,
        _ directory: TemporaryDirectory
    ) throws -> Double {
        let inputDescriptor = try Spawn.openFile(input)
        defer { Syscall.close(inputDescriptor) }
        let outputDescriptor = try Spawn.openFile(output, writing: true)
        defer { Syscall.close(outputDescriptor) }
        let errors = directory.path + "/errors.txt"
        let errorDescriptor = try Spawn.openFile(errors, writing: true)
        defer { Syscall.close(errorDescriptor) }
        let began = MonotonicClock.now()
        let pid = try spawn(
            command, environment: environment, input: inputDescriptor, output: outputDescriptor,
            errors: errorDescriptor)
        let status = try Spawn.wait(pid, name: command.0)
        let elapsed = MonotonicClock.elapsed(since: began) / 1e6
        guard status == 0 else {
            let message = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            throw BenchmarkError("\(command.0) \(command.1.joined(separator: " ")) exited with \(status): \(message)")
        }
        return elapsed
    }
}

/// A display server the benchmark starts for itself and stops at the end: a private Xvfb or headless sway.
final class DisplayServer {
    /// The server's process.
    let pid: Int32
    /// The environment of its clients.
    let environment: [String: String]
    /// Files to remove once it stopped.
    private let leftovers: [String]
    private var stopped = false

    private init(pid: Int32, environment: [String: String], leftovers: [String]) {
        self.pid = pid
        self.environment = environment
        self.leftovers = leftovers
    }

    deinit { stop() }

    /// Stops the server (its clients, the serving copies among them, see the connection end and exit).
    func stop() {
        guard !stopped else { return }
        stopped = true
        kill(pid, SIGTERM)
        _ = try? Spawn.wait(pid, name: "display server")
        for path in leftovers {
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// The process's environment without any display, then `extra`.
    private static func clientEnvironment(_ extra: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in ["DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY"] {
            environment.removeValue(forKey: name)
        }
        return environment.merging(extra) { $1 }
    }

    /// Starts Xvfb on a free display number and waits until it says it is ready (`-displayfd`).
    static func xvfb(directory: TemporaryDirectory) async throws -> DisplayServer {
        for _ in 0..<20 {
            let number = Int.random(in: 2000...2900)
            guard !FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock") else { continue }
            let output = directory.path + "/Xvfb-\(number).out"
            let descriptor = try Spawn.openFile(output, writing: true)
            let input = try Spawn.openFile("/dev/null")
            let pid = try Spawn.start(
                "/usr/bin/Xvfb",
                [":\(number)", "-displayfd", "1", "-noreset", "-nolisten", "tcp", "-screen", "0", "640x480x24"],
                standardInput: input, standardOutput: descriptor, standardError: descriptor)
            Syscall.close(descriptor)
            Syscall.close(input)
            let server = DisplayServer(
                pid: pid, environment: clientEnvironment(["DISPLAY": ":\(number)"]),
                leftovers: ["/tmp/.X\(number)-lock", "/tmp/.X11-unix/X\(number)"])
            let deadline = MonotonicClock.now() + 30_000_000_000
            while MonotonicClock.now() < deadline {
                let said = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
                if said.split(whereSeparator: \.isNewline).contains(where: { $0 == "\(number)" }) {
                    return server
                }
                if said.contains("Server is already active") || said.contains("Fatal") { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            server.stop()
        }
        throw BenchmarkError("Xvfb did not start on any of 20 display numbers")
    }

    /// Starts a headless sway (as `nobody` when this runs as root: sway refuses root) in a runtime folder of its
    /// own and waits for its socket.
    static func sway(directory: TemporaryDirectory) async throws -> DisplayServer {
        let runtime = directory.path + "/sway-runtime"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        var environment = clientEnvironment([
            "WLR_BACKENDS": "headless", "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman",
            "XDG_RUNTIME_DIR": runtime, "HOME": runtime,
        ])
        environment.removeValue(forKey: "DISPLAY")
        var command = ("/usr/bin/sway", ["-c", "/dev/null"])
        if getuid() == 0 {
            try FileManager.default.setAttributes(
                [.ownerAccountID: 65534, .posixPermissions: 0o700], ofItemAtPath: runtime)
            command = (
                "/usr/bin/setpriv",
                ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/sway", "-c", "/dev/null"]
            )
        }
        let output = try Spawn.openFile(directory.path + "/sway.out", writing: true)
        defer { Syscall.close(output) }
        let input = try Spawn.openFile("/dev/null")
        defer { Syscall.close(input) }
        let pid = try ClipboardBenchmark.spawn(
            command, environment: environment, input: input, output: output, errors: output)
        let socket = runtime + "/wayland-1"
        let server = DisplayServer(
            pid: pid,
            environment: clientEnvironment(["WAYLAND_DISPLAY": socket, "XDG_RUNTIME_DIR": runtime]),
            leftovers: [runtime])
        let deadline = MonotonicClock.now() + 30_000_000_000
        while MonotonicClock.now() < deadline {
            if FileManager.default.fileExists(atPath: socket) { return server }
            try await Task.sleep(for: .milliseconds(50))
        }
        server.stop()
        throw BenchmarkError("sway did not make its socket within 30 s (see \(directory.path)/sway.out)")
    }
}
