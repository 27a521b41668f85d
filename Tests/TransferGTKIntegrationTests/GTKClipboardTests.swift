#if GTK
    import Foundation
    import Testing
    import TransferKitPlatform
    import TransferKitTestSupport
    import TransferKitTesting

    /// Whether the stock X11 tools these tests drive are installed (Debian: xvfb, xclip, xdotool).
    let x11ToolsPresent =
        PrivateXvfb.isAvailable && SystemTool.exists("xclip")

    /// TransferGTK's GdkClipboard against xclip and a TransferKit owner, under a private Xvfb. The GTK side is
    /// `transferkit-gtk-clipboard-probe`, a child process: GTK must run its main loop on the thread that initialized
    /// it, and a test process's main thread belongs to the test runner.
    @Suite(
        "GTK clipboard through TransferKit providers", .serialized, .timeLimit(.minutes(5)),
        .enabled(if: x11ToolsPresent, "needs Xvfb, xdotool and xclip (Debian: xvfb, xdotool, xclip)"))
    final class GTKClipboardTests {
        let directory: URL
        let server: PrivateXvfb
        let probe = TransferKitExecutable.product(named: "transferkit-gtk-clipboard-probe")

        init() async throws {
            directory = try makeTemporaryDirectory(prefix: "transferkit-gtk")
            server = try await PrivateXvfb(directory: directory)
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        /// The environment of GTK and the X11 tools: the private display, GTK on X11.
        var environment: [String: String] {
            var environment = server.environment
            environment["GDK_BACKEND"] = "x11"
            environment["GSK_RENDERER"] = "cairo"
            environment["NO_AT_BRIDGE"] = "1"
            return environment
        }

        /// Runs xclip to completion with `arguments` and returns its standard output.
        func xclip(_ arguments: [String]) async throws -> (status: Int32, output: Data) {
            let result = try await ChildProcess.run(
                SystemTool.path("xclip"), arguments: ["-selection", "clipboard"] + arguments, environment: environment)
            return (result.status, Data(result.standardOutput))
        }

        /// Starts the GTK probe writing its provider and waits until it owns the clipboard.
        func startWriter(_ extra: [String] = []) async throws -> BackgroundChild {
            let writer = try BackgroundChild(
                probe, ["write"] + extra, output: directory.appendingPathComponent("writer.out"),
                environment: environment)
            #expect(try await writer.wait(for: "ready"), "\(writer.text)")
            return writer
        }

        /// Runs the GTK probe reading `name` and returns its lines.
        func readWithGTK(_ mode: String, _ name: String) async throws -> [String] {
            let result = try await ChildProcess.run(probe, arguments: [mode, name], environment: environment)
            return String(decoding: result.standardOutput, as: UTF8.self).split(separator: "\n").map(String.init)
        }

        /// xclip's TARGETS once GTK owns the clipboard (its main loop takes the selection after `ready`).
        func targets(containing name: String) async throws -> [String] {
            var names: [String] = []
            let deadline = ContinuousClock.now + .seconds(30)
            while !names.contains(name), ContinuousClock.now < deadline {
                let targets = try await xclip(["-o", "-t", "TARGETS"])
                names = String(decoding: targets.output, as: UTF8.self).split(separator: "\n").map(String.init)
                if !names.contains(name) { try await Task.sleep(for: .milliseconds(100)) }
            }
            return names
        }

        /// The peak resident memory of process `pid` (`VmHWM`), in KiB.
        func peakKiB(_ pid: Int32) -> Int {
            let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
            for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
                let fields = line.dropFirst("VmHWM:".count).split(whereSeparator: { $0 == " " || $0 == "\t" })
                return fields.first.flatMap { Int($0) } ?? 0
            }
            return 0
        }

        @Test("xclip lists the offered MIME types and reads the one it asks for, written only then")
        func gtkWritesLazily() async throws {
            let writer = try await startWriter()
            let names = try await targets(containing: "application/json")
            for expected in [
                "application/json", "text/plain;charset=utf-8", "text/plain", "UTF8_STRING", "text/html",
                "application/x-transferkit-derived",
            ] {
                #expect(names.contains(expected), "TARGETS lacks \(expected): \(names)")
            }
            // GTK serves MIME types only, so the content provider does not offer bare identifiers it would refuse.
            #expect(!names.contains("com.example.gtk-card") && !names.contains("public.utf8-plain-text"))
            #expect(!writer.text.contains("loaded"), "a loader ran before any paste: \(writer.text)")

            let json = try await xclip(["-o", "-t", "application/json"])
            #expect(json.status == 0)
            #expect(json.output == Data(#"{"name":"Luke"}"#.utf8))
            #expect(writer.text.contains("loaded card"))
            #expect(!writer.text.contains("loaded text"), "only the asked name's loader runs: \(writer.text)")

            let text = try await xclip(["-o", "-t", "UTF8_STRING"])
            #expect(text.output == Data("Luke Skywalker ✓".utf8))
            #expect(writer.text.contains("loaded text"))
        }

        @Test("A loader that throws and a name not offered cost one request; the writer keeps serving")
        func gtkWriterErrors() async throws {
            let writer = try await startWriter()
            _ = try await targets(containing: "application/json")
            let refused = try await xclip(["-o", "-t", "image/png"])
            #expect(refused.status != 0)
            #expect(refused.output.isEmpty)
            // GTK 4.8 closes the selection stream after a failed write as after a finished one: on X11 the peer
            // gets no bytes, not a refusal (GTK logs the GError).
            let failed = try await xclip(["-o", "-t", "text/html"])
            #expect(failed.output.isEmpty)
            #expect(writer.text.contains("loaded html"))
            let json = try await xclip(["-o", "-t", "application/json"])
            #expect(json.output == Data(#"{"name":"Luke"}"#.utf8))
            #expect(writer.isRunning)
        }

        @Test("A reader that dies mid-transfer costs that transfer: the stream is let go, the writer keeps serving")
        func readerDiesMidTransfer() async throws {
            let writer = try await startWriter(["large", String(1 << 30)])
            _ = try await targets(containing: "application/pdf")
            let reader = try BackgroundChild(
                SystemTool.path("xclip"), ["-selection", "clipboard", "-o", "-t", "application/pdf"],
                output: URL(fileURLWithPath: "/dev/null"), environment: environment)
            #expect(try await writer.wait(for: "loaded large"), "\(writer.text)")
            try await Task.sleep(for: .milliseconds(300))
            reader.kill()
            // GTK's X11 stream never ends a write to a dead reader; the probe's stall timeout (3 s) does.
            #expect(try await writer.wait(for: "released large", within: .seconds(60)), "\(writer.text)")
            let json = try await xclip(["-o", "-t", "application/json"])
            #expect(json.output == Data(#"{"name":"Luke"}"#.utf8))
            #expect(writer.isRunning)
        }

        @Test("GTK's clipboard reads what xclip owns, as a provider of the offered type")
        func gtkReadsFromXclip() async throws {
            let file = directory.appendingPathComponent("card.json")
            try Data(#"{"name":"Leia"}"#.utf8).write(to: file)
            let owner = try BackgroundChild(
                SystemTool.path("xclip"),
                ["-quiet", "-selection", "clipboard", "-t", "application/json", "-i", file.path],
                output: directory.appendingPathComponent("xclip.out"), environment: environment)
            defer { owner.kill() }
            #expect(try await owner.wait(for: "Waiting for selection requests"), "\(owner.text)")
            let lines = try await readWithGTK("read", "application/json")
            #expect(lines.contains("offered application/json"), "\(lines)")
            #expect(lines.contains(#"read {"name":"Leia"}"#), "\(lines)")
        }

        @Test("GTK reads only the loaded name from a TransferKit owner")
        func gtkReadsLazilyFromTransferKit() async throws {
            let owner = try BackgroundChild(
                TransferKitExecutable.product(named: "transferkit-clipboard-probe"), ["x11"],
                output: directory.appendingPathComponent("owner.out"), environment: environment)
            #expect(try await owner.wait(for: "ready"), "\(owner.text)")
            let lines = try await readWithGTK("read", "text/plain;charset=utf-8")
            #expect(lines.contains("read Ada Lovelace ✓"), "\(lines)")
            #expect(owner.text.contains("loaded text"))
            #expect(!owner.text.contains("loaded card") && !owner.text.contains("loaded png"), "\(owner.text)")
        }

        @Test("Text that does not decode, and a type nobody offers, are typed errors of the provider")
        func gtkReadErrors() async throws {
            let file = directory.appendingPathComponent("bad.txt")
            try Data([0x4C, 0xFF, 0xFE, 0xC0]).write(to: file)
            let owner = try BackgroundChild(
                SystemTool.path("xclip"),
                ["-quiet", "-selection", "clipboard", "-t", "text/plain;charset=utf-8", "-i", file.path],
                output: directory.appendingPathComponent("xclip.out"), environment: environment)
            defer { owner.kill() }
            #expect(try await owner.wait(for: "Waiting for selection requests"), "\(owner.text)")
            let undecodable = try await readWithGTK("read-string", "text/plain;charset=utf-8")
            #expect(undecodable.contains { $0.hasPrefix("failed decodingFailed") }, "\(undecodable)")
            let missing = try await readWithGTK("read", "image/png")
            #expect(missing.contains { $0.hasPrefix("failed unavailableRepresentation") }, "\(missing)")
        }

        @Test("64 MiB go from GTK to xclip and from xclip to GTK, streamed in bounded memory")
        func largeBothWays() async throws {
            let size = 64 << 20
            let writer = try await startWriter(["large", String(size)])
            _ = try await targets(containing: "application/pdf")
            let before = peakKiB(writer.pid)
            let out = try await xclip(["-o", "-t", "application/pdf"])
            #expect(out.output.count == size)
            #expect(out.output.allSatisfy { $0 == 0x4B })
            #expect(writer.text.contains("loaded large"))
            let writerGrowth = peakKiB(writer.pid) - before
            writer.kill()

            /// The GTK reader's peak after streaming `count` bytes from xclip.
            func readerPeak(_ count: Int) async throws -> Int {
                let file = directory.appendingPathComponent("large.bin")
                try Data(repeating: 0x4C, count: count).write(to: file)
                let owner = try BackgroundChild(
                    SystemTool.path("xclip"),
                    ["-quiet", "-selection", "clipboard", "-t", "application/octet-stream", "-i", file.path],
                    output: directory.appendingPathComponent("xclip-large.out"), environment: environment)
                defer { owner.kill() }
                #expect(try await owner.wait(for: "Waiting for selection requests"), "\(owner.text)")
                let lines = try await readWithGTK("read-size", "application/octet-stream")
                #expect(lines.contains("read-size \(count)"), "\(lines)")
                return lines.first { $0.hasPrefix("peak-kib ") }.flatMap { Int($0.dropFirst("peak-kib ".count)) } ?? 0
            }
            let small = try await readerPeak(1 << 20)
            let large = try await readerPeak(size)
            print(
                "64 MiB GTK: writer peak RSS growth \(writerGrowth) KiB; reader peak \(large) KiB (\(small) for 1 MiB)")
            if !threadSanitizerIsActive {
                #expect(writerGrowth < 32 << 10, "the GTK writer's peak grew by \(writerGrowth) KiB")
                #expect(large - small < 32 << 10, "the GTK reader's peak was \(large) KiB, \(small) for 1 MiB")
            }
        }
    }
#endif
