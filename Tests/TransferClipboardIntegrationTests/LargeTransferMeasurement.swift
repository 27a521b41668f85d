import Foundation
import Testing
import TransferDisplayTestSupport
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting

/// A private desktop for the clipboard tests (Xvfb with xclip, or headless sway with wl-clipboard), driven through
/// its stock tools the same way, so one measurement serves both protocols.
protocol TestDesktop: Sendable {
    /// The environment of this desktop's clients.
    var environment: [String: String] { get }
    /// A folder for the test's files, removed with the desktop.
    var directory: URL { get }
    /// The names the clipboard offers now, listed by the stock tool.
    func offeredNames() async throws -> [String]
    /// Reads `type` from the clipboard with the stock tool into `outputFile`; the tool's exit status.
    func stockRead(_ type: String, into outputFile: String) async throws -> Int32
    /// Puts `file` on the clipboard as `type` with the stock tool, serving in the background; what keeps serving,
    /// when the test must stop it.
    func stockCopy(_ file: URL, type: String) async throws -> BackgroundProcess?
}

extension TestDesktop {
    /// Waits until the clipboard offers `type` (a copy started in the background takes it a moment later).
    func waitUntilOffered(_ type: String) async throws {
        for _ in 0..<1000 {
            if try await offeredNames().contains(type) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("\(type) was never offered")
    }

    /// Runs `transferkit-memory-probe copy --foreground` with `copyArguments` until the stock tool takes the
    /// clipboard, with `read` in between once `type` is offered; the probe's peak memory in KiB.
    func servingPeak(_ copyArguments: [String], type: String, read: () async throws -> Void) async throws -> Int {
        let report = directory.appendingPathComponent("probe-\(UUID().uuidString).out").path
        let copy = try BackgroundProcess(
            [TransferKitExecutable.product(named: "transferkit-memory-probe"), "copy", "--foreground"]
                + copyArguments, environment: environment, outputFile: report)
        defer { copy.stop() }
        try await waitUntilOffered(type)
        try await read()
        let taker = directory.appendingPathComponent("taker.txt")
        try Data("taker".utf8).write(to: taker)
        let tool = try await stockCopy(taker, type: "text/plain")
        defer { tool?.stop() }
        let status = try await copy.exitStatus()
        let text = String(decoding: FileManager.default.contents(atPath: report) ?? Data(), as: UTF8.self)
        #expect(status == 0, "\(text)")
        return try reportedPeak(text)
    }

    /// How much the peak memory of `transferkit` grows, in KiB, serving 64 MiB of `type` to the stock tool,
    /// pasting 64 MiB that the stock tool serves, and serving 64 MiB restored from an archive, against the same
    /// runs with five bytes; the bytes are checked each way.
    ///
    /// Measured in child processes (the memory probe is the `transferkit` tool that reports its peak), so that the
    /// tests running beside this one in the test process cannot add to the figure.
    func largeTransferGrowth(
        type: String = "com.example.blob"
    ) async throws -> (writing: Int, reading: Int, restoring: Int) {
        let big = directory.appendingPathComponent("big.bin")
        try PatternChunks.write(64 << 20, to: big)
        let small = directory.appendingPathComponent("small.bin")
        try Data("small".utf8).write(to: small)

        // Writing: the probe serves the file; the stock tool reads it whole into a file.
        let smallOut = directory.appendingPathComponent("small-out.bin").path
        let baseline = try await servingPeak(["--type", type, small.path], type: type) {
            let status = try await stockRead(type, into: smallOut)
            #expect(status == 0)
        }
        let bigOut = directory.appendingPathComponent("big-out.bin").path
        let writing = try await servingPeak(["--type", type, big.path], type: type) {
            let status = try await stockRead(type, into: bigOut)
            let start = FileManager.default.contents(atPath: bigOut)?.prefix(200) ?? Data()
            #expect(status == 0, "\(String(decoding: start, as: UTF8.self))")
        }
        #expect(FileManager.default.contents(atPath: bigOut) == FileManager.default.contents(atPath: big.path))
        try? FileManager.default.removeItem(atPath: bigOut)

        // Restoring: the probe serves the same bytes from an archive (its payloads spooled, never held).
        let archive = directory.appendingPathComponent("big.transferkit").path
        let pack = try await ChildProcess.run(
            TransferKitExecutable.defaultPath, arguments: ["pack", "--type", type, big.path, "-o", archive])
        #expect(pack.status == 0, "\(pack.errorText)")
        let restoring = try await servingPeak([archive], type: type) {
            let status = try await stockRead(type, into: bigOut)
            #expect(status == 0)
        }
        #expect(FileManager.default.contents(atPath: bigOut) == FileManager.default.contents(atPath: big.path))
        try? FileManager.default.removeItem(atPath: bigOut)
        try? FileManager.default.removeItem(atPath: archive)

        // Reading: the stock tool serves the file; the probe pastes it into another.
        let tool = try await stockCopy(big, type: type)
        defer { tool?.stop() }
        try await waitUntilOffered(type)
        let pasted = directory.appendingPathComponent("pasted.bin").path
        let paste = try await ChildProcess.run(
            TransferKitExecutable.product(named: "transferkit-memory-probe"),
            arguments: ["paste", "--type", type, "-o", pasted], environment: environment)
        #expect(paste.status == 0, "\(paste.errorText)")
        #expect(FileManager.default.contents(atPath: pasted) == FileManager.default.contents(atPath: big.path))
        try? FileManager.default.removeItem(atPath: pasted)
        let reading = try reportedPeak(paste.errorText)
        return (writing - baseline, reading - baseline, restoring - baseline)
    }
}

extension XvfbServer: TestDesktop {
    func offeredNames() async throws -> [String] {
        let targets = try await xclip(["-o", "-selection", "clipboard", "-t", "TARGETS"])
        return String(decoding: targets.output, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    func stockRead(_ type: String, into outputFile: String) async throws -> Int32 {
        try await xclip(["-o", "-selection", "clipboard", "-t", type], outputFile: outputFile).status
    }

    func stockCopy(_ file: URL, type: String) async throws -> BackgroundProcess? {
        try startXclipServing(["-selection", "clipboard", "-t", type], file: file.path)
    }
}

extension WaylandCompositor: TestDesktop {
    func offeredNames() async throws -> [String] {
        let listed = try await wlPaste(["--list-types"])
        return String(decoding: listed.output, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    func stockRead(_ type: String, into outputFile: String) async throws -> Int32 {
        try await wlPaste(["--no-newline", "--type", type], outputFile: outputFile).status
    }

    /// wl-copy's server ends with the compositor: nothing to stop.
    func stockCopy(_ file: URL, type: String) async throws -> BackgroundProcess? {
        try await wlCopy(file, type: type)
        return nil
    }
}
