import Foundation
import Testing
import TransferDisplayTestSupport
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting

/// An X11 owner that dies in the middle of a transfer: `paste` learns it from XFIXES and fails with `ownerGone`,
/// instead of waiting for the next chunk until its 60-second time limit.
@Suite(
    "X11 owner killed mid-transfer", .serialized, .timeLimit(.minutes(5)),
    .enabled(if: x11ToolsPresent, "needs Xvfb and xclip (Debian: xvfb, xclip)"))
final class X11OwnerDeathTests {
    let server: XvfbServer

    init() async throws {
        server = try await XvfbServer.start()
    }

    deinit {
        server.stop()
    }

    @Test("xclip SIGKILLed mid-INCR: paste fails with ownerGone (exit 2), long before its 60 s time limit")
    func xclipKilledMidIncr() async throws {
        let big = server.directory.appendingPathComponent("big.bin")
        try Data(repeating: 0x5A, count: 64 << 20).write(to: big)
        let xclip = try server.startXclipServing(["-selection", "clipboard", "-t", "com.example.blob"], file: big.path)
        defer { xclip.stop() }
        try await server.waitUntilOffered("com.example.blob")

        // The paste writes into a FIFO this test reads only after the kill: once the FIFO is full the paste stops
        // asking for chunks, so the owner is certainly in the middle of its INCR transfer when it dies.
        let fifo = server.directory.appendingPathComponent("paste.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = try Syscall.openForReading(fifo, nonBlocking: true)
        defer { Syscall.close(reader) }
        let paste = try BackgroundProcess(
            [TransferKitExecutable.defaultPath, "paste", "--type", "com.example.blob"], environment: server.environment,
            outputFile: fifo)
        defer { paste.stop() }
        #expect(try Syscall.waitUntilReadable(reader, timeout: patience), "the paste wrote nothing")

        kill(xclip.pid, SIGKILL)
        let killed = ContinuousClock.now
        // Standard error goes to the FIFO too: the error line comes last, after the bytes read before the death.
        var received = 0
        var tail: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while try Syscall.waitUntilReadable(reader, timeout: patience) {
            let count = try Syscall.read(reader, into: &buffer)
            if count == 0 { break }
            received += count
            tail = Array((tail + buffer[..<count]).suffix(4096))
        }
        let status = try await paste.exitStatus()
        let elapsed = ContinuousClock.now - killed
        let error = String(decoding: tail.drop { $0 == 0x5A }, as: UTF8.self)
        #expect(received < 64 << 20, "the whole payload arrived: the owner was not killed mid-transfer")
        #expect(status == 2, "\(error)")
        #expect(error.hasPrefix("transferkit paste: "), "\(error)")
        #expect(error.hasSuffix(" (ownerGone)\n"), "\(error)")
        print("X11 owner SIGKILLed mid-INCR: paste ended \(elapsed) after the kill, status \(status)")
    }

    @Test("An owner SIGKILLed before it answered (a pending SelectionNotify): paste fails with ownerGone (exit 2)")
    func ownerKilledBeforeAnswering() async throws {
        let report = server.directory.appendingPathComponent("probe.out").path
        let probe = try BackgroundProcess(
            [TransferKitExecutable.product(named: "transferkit-clipboard-probe"), "x11"],
            environment: server.environment, outputFile: report)
        defer { probe.stop() }
        try await waitFor("ready", in: report)
        let output = server.directory.appendingPathComponent("paste.out").path
        let paste = try BackgroundProcess(
            [TransferKitExecutable.defaultPath, "paste", "--type", "com.example.probe-stall"],
            environment: server.environment, outputFile: output)
        defer { paste.stop() }
        // The probe's loader runs when the paste's ConvertSelection reaches it, and never returns: the paste waits
        // for the answer when the owner dies.
        try await waitFor("loaded stall", in: report)
        kill(probe.pid, SIGKILL)
        let status = try await paste.exitStatus()
        let error = String(decoding: FileManager.default.contents(atPath: output) ?? Data(), as: UTF8.self)
        #expect(status == 2, "\(error)")
        #expect(error.hasPrefix("transferkit paste: "), "\(error)")
        #expect(error.hasSuffix(" (ownerGone)\n"), "\(error)")
    }

    /// Waits until the probe has written `line` into the file `report`.
    func waitFor(_ line: String, in report: String) async throws {
        func lines() -> [Substring] {
            String(decoding: FileManager.default.contents(atPath: report) ?? Data(), as: UTF8.self).split(
                separator: "\n")
        }
        for _ in 0..<3000 where !lines().contains(Substring(line)) {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(lines().contains(Substring(line)), "the probe never printed '\(line)': \(lines())")
    }
}
