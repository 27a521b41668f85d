import Foundation
import Testing
import TransferDisplayTestSupport
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting

/// A Wayland source that dies in the middle of a transfer. Data control gives the reader a pipe and nothing else: the
/// source ends its data by closing the pipe, and a source that dies closes it too, after which the compositor
/// withdraws the selection, as it does when a `--paste-once` source exits having written everything. So the death
/// cannot be told from the end (`ClipboardError.Code.ownerGone` documents it); this pins what `paste` does then.
@Suite(
    "Wayland source killed mid-transfer", .serialized, .timeLimit(.minutes(5)),
    .enabled(if: waylandToolsPresent, "needs sway, wl-clipboard and setpriv (Debian: sway, wl-clipboard, util-linux)"))
final class WaylandSourceDeathTests {
    let compositor: WaylandCompositor

    init() async throws {
        compositor = try await WaylandCompositor.start()
    }

    deinit {
        compositor.stop()
    }

    /// Through the compositor's pipe (a copy with a paste limit offers no session), the pipe's end reads as the
    /// data's end and the paste is short; through the session a copy of a file offers (section 7.1 of the session
    /// protocol), the paste had the file's descriptor before the kill and reads it whole.
    @Test(
        "A TransferKit source SIGKILLed mid-transfer: through the pipe paste exits 0 short; through its session, whole",
        arguments: [false, true])
    func sourceKilledMidTransfer(throughSession: Bool) async throws {
        let big = compositor.directory.appendingPathComponent("big.bin")
        try Data(repeating: 0x5A, count: 64 << 20).write(to: big)
        let copy = try BackgroundProcess(
            [TransferKitExecutable.defaultPath, "copy", "--foreground", "--type", "com.example.blob", big.path]
                + (throughSession ? [] : ["--loops", "100"]),
            environment: compositor.environment)
        defer { copy.stop() }
        try await compositor.waitUntilOffered("com.example.blob")

        // As on X11: the paste writes into a FIFO read only after the kill, so the source is mid-transfer then.
        let fifo = compositor.directory.appendingPathComponent("paste.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = try Syscall.openForReading(fifo, nonBlocking: true)
        defer { Syscall.close(reader) }
        let paste = try BackgroundProcess(
            [TransferKitExecutable.defaultPath, "paste", "--type", "com.example.blob"],
            environment: compositor.environment, outputFile: fifo)
        defer { paste.stop() }
        #expect(try Syscall.waitUntilReadable(reader, timeout: patience), "the paste wrote nothing")

        kill(copy.pid, SIGKILL)
        var received = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var other = 0
        while try Syscall.waitUntilReadable(reader, timeout: patience) {
            let count = try Syscall.read(reader, into: &buffer)
            if count == 0 { break }
            received += count
            other += buffer[..<count].count { $0 != 0x5A }
        }
        let status = try await paste.exitStatus()
        if throughSession {
            #expect(received == 64 << 20, "the passed file was not read whole")
        } else {
            #expect(received < 64 << 20, "the whole payload arrived: the source was not killed mid-transfer")
        }
        #expect(other == 0, "paste printed something besides the bytes (an error?)")
        #expect(status == 0)
    }
}
