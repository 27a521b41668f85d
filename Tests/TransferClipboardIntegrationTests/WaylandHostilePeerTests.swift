import Foundation
import Testing
import TransferDisplayTestSupport
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting
import UniformTypes

@testable import TransferClipboard
@testable import TransferDisplay

/// A fake compositor on a Unix socket in a temporary folder: it reads the client's requests and answers each
/// `wl_display.sync` with what `answer` returns (nil: hang up; empty: say nothing).
final class WaylandFakeCompositor: Sendable {
    let directory: URL
    let path: String
    let listener: UnixSocket

    init(answer: @escaping @Sendable (_ callback: UInt32, _ syncIndex: Int) -> [UInt8]?) throws {
        directory = try makeTemporaryDirectory(prefix: "transferkit-wayland-fake")
        path = directory.appendingPathComponent("wayland-fake").path
        listener = try UnixSocket.listen(atPath: path)
        DedicatedThread.start { [listener] in
            guard let client = try? listener.accept() else { return }
            defer { client.close() }
            var frames = WaylandFrames()
            var received = FrameBuffer()
            var buffer = [UInt8](repeating: 0, count: 4096)
            var syncs = 0
            while true {
                var fds: [Int32] = []
                let count =
                    (try? buffer.withUnsafeMutableBytes { try client.receive(into: $0, descriptors: &fds) }) ?? 0
                for fd in fds { Syscall.close(fd) }
                guard count > 0 else { return }
                received.append(buffer[..<count])
                while let frame = try? frames.nextFrame(from: &received) {
                    guard frame.objectID == 1, frame.opcode == 0, frame.body.count == 4 else { continue }
                    let callback = frame.body.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
                    guard let reply = answer(callback, syncs) else { return }
                    syncs += 1
                    if !reply.isEmpty { try? client.sendAll(reply, timeout: .seconds(10)) }
                }
            }
        }
    }

    deinit {
        listener.close()
        try? FileManager.default.removeItem(at: directory)
    }

    static func event(_ objectID: UInt32, _ opcode: UInt16, _ arguments: [WaylandArgument] = []) -> [UInt8] {
        (try? WaylandWire.encode(WaylandMessage(objectID: objectID, opcode: opcode, arguments: arguments)).bytes) ?? []
    }

    static func done(_ callback: UInt32) -> [UInt8] { event(callback, 0, [.uint(0)]) }
    static func global(_ name: UInt32, _ interface: String, _ version: UInt32) -> [UInt8] {
        event(2, 0, [.uint(name), .string(interface), .uint(version)])  // the registry is the client's id 2
    }
}

@Suite("Wayland backend against a hostile compositor", .timeLimit(.minutes(5)))
struct WaylandHostilePeerTests {
    func connect(
        timeout: Duration = waylandPatience, _ answer: @escaping @Sendable (UInt32, Int) -> [UInt8]?
    ) async throws -> ClipboardError? {
        let fake = try WaylandFakeCompositor(answer: answer)
        do {
            let backend = try await WaylandBackend(socketPath: fake.path, timeout: timeout)
            backend.close()
            return nil
        } catch let error as ClipboardError {
            return error
        }
    }

    @Test func noDataControlGlobalIsProtocolUnavailable() async throws {
        let error = try await connect { callback, _ in
            WaylandFakeCompositor.global(1, "wl_seat", 7) + WaylandFakeCompositor.global(2, "wl_compositor", 4)
                + WaylandFakeCompositor.done(callback)
        }
        #expect(error?.code == .protocolUnavailable)
        #expect(error?.message.contains("ext_data_control_manager_v1") == true)
        #expect(error?.message.contains("zwlr_data_control_manager_v1") == true)
        #expect(error?.message.contains("DISPLAY") == true)
    }

    @Test func displayErrorIsTypedWithItsInterfaceCodeAndMessage() async throws {
        let error = try await connect { _, _ in
            WaylandFakeCompositor.event(1, 0, [.object(1), .uint(3), .string("you are not welcome")])
        }
        #expect(error?.code == .protocolViolation)
        #expect(error?.message.contains("you are not welcome") == true)
        #expect(error?.message.contains("error 3") == true)
        #expect(error?.message.contains("display") == true)
    }

    @Test(arguments: [
        [UInt8]([1, 0, 0, 0, 0, 0, 4, 0]),  // size below the header
        [1, 0, 0, 0, 0, 0, 0xff, 0xff],  // size over the limit
        [1, 0, 0, 0, 0, 0, 10, 0, 0, 0],  // size not a multiple of 4
        [77, 0, 0, 0, 0, 0, 8, 0],  // an object that does not exist
        [2, 0, 0, 0, 0, 0, 20, 0, 1, 0, 0, 0, 0xff, 0xff, 0, 0, 7, 0, 0, 0],  // a string longer than the message
        [2, 0, 0, 0, 9, 0, 8, 0],  // an opcode the registry does not have
    ])
    func malformedMessagesAreProtocolViolations(bytes: [UInt8]) async throws {
        let error = try await connect { _, _ in bytes }
        #expect(error?.code == .protocolViolation)
    }

    @Test func truncatedMessageTimesOut() async throws {
        let error = try await connect(timeout: .seconds(2)) { _, _ in
            let whole = WaylandFakeCompositor.global(1, "wl_seat", 7)
            return Array(whole.prefix(10))
        }
        // The compositor says nothing more and keeps the connection: the round trip times out.
        #expect(error?.code == .timedOut)
    }

    @Test func silentCompositorTimesOut() async throws {
        let error = try await connect(timeout: .seconds(1)) { _, _ in [] }
        #expect(error?.code == .timedOut)
    }

    @Test func hangUpIsConnectionFailed() async throws {
        let error = try await connect { _, _ in nil }
        #expect(error?.code == .connectionFailed)
    }

    @Test func missingSocketIsConnectionFailedAndNoDisplayWithoutWaylandDisplay() async throws {
        await #expect {
            _ = try await WaylandBackend(socketPath: "/nonexistent/wayland-9", timeout: .seconds(5))
        } throws: { error in
            (error as? ClipboardError)?.code == .connectionFailed
        }
        await #expect {
            _ = try await WaylandBackend.connect(environment: [:], timeout: .seconds(5))
        } throws: { error in
            (error as? ClipboardError)?.code == .noDisplay
        }
        await #expect {
            _ = try await WaylandBackend.connect(environment: ["WAYLAND_DISPLAY": "wayland-0"], timeout: .seconds(5))
        } throws: { error in
            (error as? ClipboardError)?.code == .noDisplay
        }
    }

    /// A compositor with a seat and no data-control protocol, as GNOME's Mutter is.
    static func withoutDataControl() throws -> WaylandFakeCompositor {
        try WaylandFakeCompositor { callback, _ in
            WaylandFakeCompositor.global(1, "wl_seat", 7) + WaylandFakeCompositor.done(callback)
        }
    }

    @Test func automaticWithoutDataControlOrDisplayNamesBothProtocolsAndWhatWorksInstead() async throws {
        let fake = try Self.withoutDataControl()
        let error = await #expect(throws: ClipboardError.self) {
            _ = try await Clipboard(environment: ["WAYLAND_DISPLAY": fake.path], timeout: waylandPatience)
        }
        #expect(error?.code == .protocolUnavailable)
        for name in ["ext_data_control_manager_v1", "zwlr_data_control_manager_v1", "DISPLAY"] {
            #expect(error?.message.contains(name) == true, "\(error?.message ?? "")")
        }
    }

    @Test func commandLineWithoutDataControlExitsTwoWithTheProtocolsNamed() async throws {
        let fake = try Self.withoutDataControl()
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = fake.path
        let paste = try await ChildProcess.run(
            TransferKitExecutable.defaultPath, arguments: ["paste", "--list"], environment: environment)
        #expect(paste.status == 2)
        #expect(paste.errorText.hasSuffix(" (protocolUnavailable)\n"), "\(paste.errorText)")
        #expect(paste.errorText.contains("ext_data_control_manager_v1"), "\(paste.errorText)")
    }
}

/// `.automatic` under a compositor without data-control, with an X server beside it (XWayland's situation).
@Suite(
    "Falling back from Wayland to X11", .timeLimit(.minutes(5)),
    .enabled(if: x11ToolsPresent, "needs Xvfb and xclip (Debian: xvfb, xclip)"))
struct WaylandFallbackTests {
    @Test func automaticFallsBackToX11WhenTheCompositorLacksDataControl() async throws {
        let server = try await XvfbServer.start()
        defer { server.stop() }
        let fake = try WaylandHostilePeerTests.withoutDataControl()
        var environment = server.environment
        environment["WAYLAND_DISPLAY"] = fake.path
        let clipboard = try await Clipboard(environment: environment, timeout: waylandPatience)
        defer { clipboard.close() }
        #expect(clipboard.protocolName == "X11")
        let handle = try await clipboard.write([TransferProvider(data: Data("via X11".utf8), type: .utf8PlainText)])
        let pasted = try await server.xclip(["-o", "-selection", "clipboard", "-t", "UTF8_STRING"])
        #expect(pasted.output == Data("via X11".utf8))
        await handle.release()
    }
}
