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

/// The JSON object `text` holds (a `doctor --json` line).
func jsonObject(_ text: String) throws -> [String: Any] {
    try #require(
        try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) as? [String: Any])
}

/// The suites that start weston run one test at a time: each test starts a compositor (some with an Xvfb and
/// XWayland), and all of them at once on a loaded two-core machine starve the timing-sensitive tests of other suites.
@Suite("Suites that start weston", .serialized, .timeLimit(.minutes(5)))
struct WestonSuites {}

extension WestonSuites {
    /// copy, paste and doctor against weston headless: a compositor with `wl_data_device_manager` and no data control
    /// (and, headless, no seat), as GNOME's Mutter has no data control.
    @Suite(
        "Compositors without data control: the diagnosis", .timeLimit(.minutes(5)),
        .enabled(if: westonPresent, "needs weston (Debian: weston)"))
    struct NoDataControlDiagnosisTests {
        @Test("paste and copy say what the compositor offers and what to do, with protocolUnavailable")
        func commandErrors() async throws {
            let weston = try await WestonCompositor.start()
            defer { weston.stop() }
            let paste = try await weston.transferkit(["paste", "--list"])
            let copy = try await weston.transferkit(["copy", "--foreground", "-"])
            for result in [paste, copy] {
                #expect(result.status == 2)
                #expect(result.errorText.hasSuffix(" (protocolUnavailable)\n"), "\(result.errorText)")
                for part in [
                    "ext_data_control_manager_v1", "zwlr_data_control_manager_v1", "wl_data_device_manager v3",
                    "xdg_wm_base v", "wl_shm v", "but no wl_seat", "set DISPLAY", "sway", "transferkit doctor",
                ] {
                    #expect(result.errorText.contains(part), "\(part): \(result.errorText)")
                }
                #expect(!result.errorText.contains("wayland-focus"), "no seat, so no focus-surface fallback to suggest")
            }
        }

        @Test("The library's error names the compositor's globals and versions")
        func libraryError() async throws {
            let weston = try await WestonCompositor.start()
            defer { weston.stop() }
            for choice in [ClipboardBackendChoice.automatic, .wayland] {
                let error = await #expect(throws: ClipboardError.self) {
                    _ = try await Clipboard(backend: choice, environment: weston.environment, timeout: waylandPatience)
                }
                #expect(error?.code == .protocolUnavailable)
                #expect(
                    error?.message.contains("It offers wl_data_device_manager v3, xdg_wm_base v") == true,
                    "\(error?.message ?? "")")
            }
        }

        @Test("A DISPLAY with no X server behind it: X11's connectionFailed, with both reasons and what to check")
        func deadDisplay() async throws {
            let weston = try await WestonCompositor.start()
            defer { weston.stop() }
            var environment = weston.environment
            environment["DISPLAY"] = "\(weston.directory.path)/no-server:0"
            let error = await #expect(throws: ClipboardError.self) {
                _ = try await Clipboard(environment: environment, timeout: waylandPatience)
            }
            #expect(error?.code == .connectionFailed)
            for part in [
                "Wayland was tried first", "wl_data_device_manager v3", "XWayland on demand", "DISPLAY is stale",
            ] {
                #expect(error?.message.contains(part) == true, "\(part): \(error?.message ?? "")")
            }
        }

        @Test("doctor reports the globals, no data control and no usable clipboard, and exits 1")
        func doctor() async throws {
            let weston = try await WestonCompositor.start()
            defer { weston.stop() }
            let text = try await weston.transferkit(["doctor"])
            #expect(text.status == 1, "\(text.errorText)")
            for line in [
                "  WAYLAND_DISPLAY=\(weston.socketPath)", "  DISPLAY=(unset)",
                "Wayland: compositor at \(weston.socketPath) answers",
                "  wl_data_device_manager        v3", "  wl_seat                       absent", "  data control: none",
                "  focus-surface fallback (--backend wayland-focus): not possible",
                "X11: not usable: ", "Clipboard: not usable: ",
            ] {
                #expect(text.outputText.contains(line), "\(line): \(text.outputText)")
            }
            let json = try await weston.transferkit(["doctor", "--json"])
            #expect(json.status == 1)
            let report = try jsonObject(json.outputText)
            #expect(report["usable"] as? Bool == false)
            let wayland = try #require(report["wayland"] as? [String: Any])
            #expect(wayland["reachable"] as? Bool == true)
            #expect(wayland["dataControl"] is NSNull)
            #expect(wayland["focusSurfaceFallback"] as? Bool == false)
            let globals = try #require(wayland["globals"] as? [String: Any])
            #expect(globals["wl_data_device_manager"] as? Int == 3)
            #expect(globals["wl_seat"] is NSNull && globals["ext_data_control_manager_v1"] is NSNull)
            #expect((globals["xdg_wm_base"] as? Int ?? 0) >= 1 && (globals["wl_shm"] as? Int ?? 0) >= 1)
            let automatic = try #require(report["automatic"] as? [String: Any])
            #expect(automatic["backend"] is NSNull)
            #expect((automatic["error"] as? [String: Any])?["code"] as? String == "protocolUnavailable")
            let x11 = try #require(report["x11"] as? [String: Any])
            #expect(x11["reachable"] as? Bool == false)
            #expect((x11["error"] as? [String: Any])?["code"] as? String == "noDisplay")
        }
    }
}

/// doctor where the clipboard works: Xvfb, and headless sway.
@Suite("transferkit doctor where the clipboard works", .timeLimit(.minutes(5)))
struct DoctorTests {
    @Test(
        "Under Xvfb: X11, because only DISPLAY is set; exit 0",
        .enabled(if: x11ToolsPresent, "needs Xvfb and xclip (Debian: xvfb, xclip)"))
    func xvfb() async throws {
        let server = try await XvfbServer.start()
        defer { server.stop() }
        let text = try await ChildProcess.run(
            TransferKitExecutable.defaultPath, arguments: ["doctor"], environment: server.environment)
        #expect(text.status == 0, "\(text.errorText)")
        #expect(text.outputText.contains("X11: server at DISPLAY=:\(server.display) answers ("), "\(text.outputText)")
        #expect(text.outputText.contains("with XFIXES)"), "\(text.outputText)")
        #expect(text.outputText.contains("Clipboard: X11, because only DISPLAY is set"), "\(text.outputText)")
        let json = try await ChildProcess.run(
            TransferKitExecutable.defaultPath, arguments: ["doctor", "--json"], environment: server.environment)
        #expect(json.status == 0)
        let report = try jsonObject(json.outputText)
        #expect(report["usable"] as? Bool == true)
        let x11 = try #require(report["x11"] as? [String: Any])
        #expect(x11["reachable"] as? Bool == true && x11["xfixes"] as? Bool == true)
        #expect(x11["display"] as? String == ":\(server.display)")
        #expect((report["automatic"] as? [String: Any])?["backend"] as? String == "X11")
        let wayland = try #require(report["wayland"] as? [String: Any])
        #expect((wayland["error"] as? [String: Any])?["code"] as? String == "noDisplay")
        let variables = try #require(report["variables"] as? [String: Any])
        #expect(variables["DISPLAY"] as? String == ":\(server.display)" && variables["WAYLAND_DISPLAY"] is NSNull)
    }

    @Test(
        "Under headless sway: Wayland with data control, and its seat; exit 0",
        .enabled(
            if: waylandToolsPresent, "needs sway, wl-clipboard and setpriv (Debian: sway, wl-clipboard, util-linux)"))
    func sway() async throws {
        let compositor = try await WaylandCompositor.start()
        defer { compositor.stop() }
        let text = try await ChildProcess.run(
            TransferKitExecutable.defaultPath, arguments: ["doctor"], environment: compositor.environment)
        #expect(text.status == 0, "\(text.errorText)")
        #expect(text.outputText.contains("Clipboard: Wayland ("), "\(text.outputText)")
        #expect(text.outputText.contains("because WAYLAND_DISPLAY names a compositor with data control"))
        let json = try await ChildProcess.run(
            TransferKitExecutable.defaultPath, arguments: ["doctor", "--json"], environment: compositor.environment)
        let report = try jsonObject(json.outputText)
        #expect(report["usable"] as? Bool == true)
        let wayland = try #require(report["wayland"] as? [String: Any])
        #expect(wayland["dataControl"] is String, "\(wayland)")
        let globals = try #require(wayland["globals"] as? [String: Any])
        #expect(globals["zwlr_data_control_manager_v1"] as? Int == 2 && globals["wl_seat"] is Int, "\(globals)")
        #expect(((report["automatic"] as? [String: Any])?["backend"] as? String)?.hasPrefix("Wayland (") == true)
    }
}

extension WestonSuites {
    /// The X11 fallback through XWayland, with a real compositor without data control whose XWayland starts on demand.
    @Suite(
        "Compositors without data control: the X11 fallback through XWayland", .timeLimit(.minutes(5)),
        .enabled(
            if: westonWithXWaylandPresent,
            "needs weston, Xwayland, Xvfb and xclip (Debian: weston, xwayland, xvfb, xclip)"))
    struct XWaylandFallbackTests {
        @Test("Automatic falls back to XWayland (started by the first connection); xclip and wl-paste read the copy")
        func fallback() async throws {
            let weston = try await WestonCompositor.start(xwayland: true)
            defer { weston.stop() }
            let clipboard = try await Clipboard(environment: weston.environment, timeout: waylandPatience)
            defer { clipboard.close() }
            #expect(clipboard.protocolName == "X11")
            let handle = try await clipboard.write([
                TransferProvider(data: Data("via XWayland".utf8), type: .utf8PlainText)
            ]
            )
            let xclip = try await runTool(
                [
                    "/usr/bin/timeout", "60", SystemTool.path("xclip"), "-o", "-selection", "clipboard", "-t",
                    "UTF8_STRING",
                ],
                environment: weston.environment)
            #expect(xclip.output == Data("via XWayland".utf8), "\(xclip.error)")
            // weston's window manager hands the X11 selection to Wayland clients: wl-paste (which takes keyboard focus
            // with a surface of its own) reads it.
            let wlPaste = try await runTool(
                ["/usr/bin/timeout", "60", SystemTool.path("wl-paste"), "--no-newline"], environment: weston.environment
            )
            #expect(wlPaste.output == Data("via XWayland".utf8), "\(wlPaste.error)")
            await handle.release()
            let doctor = try await weston.transferkit(["doctor"])
            #expect(doctor.status == 0, "\(doctor.outputText)")
            #expect(
                doctor.outputText.contains(
                    "Clipboard: X11, because the Wayland compositor has no data-control protocol, and DISPLAY=:"),
                "\(doctor.outputText)")
            #expect(doctor.outputText.contains("  wl_seat                       v"), "\(doctor.outputText)")
        }
    }
}

/// Where the X server is, seen from a process whose `/tmp` is not the server's.
@Suite(
    "An X server reachable only by its abstract name", .timeLimit(.minutes(5)),
    .enabled(if: x11ToolsPresent, "needs Xvfb and xclip (Debian: xvfb, xclip)"))
struct X11AbstractSocketTests {
    @Test("Without the socket file (a private /tmp), the clipboard connects by the abstract name, as xclip does")
    func abstractName() async throws {
        let server = try await XvfbServer.start()
        defer { server.stop() }
        // Xvfb listens on both; a systemd service with PrivateTmp or a sandbox sees only the abstract one.
        try FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(server.display)")
        let clipboard = try await Clipboard(environment: server.environment, timeout: patience)
        defer { clipboard.close() }
        #expect(clipboard.protocolName == "X11")
        let handle = try await clipboard.write([TransferProvider(data: Data("abstract".utf8), type: .utf8PlainText)])
        let pasted = try await server.xclip(["-o", "-selection", "clipboard", "-t", "UTF8_STRING"])
        #expect(pasted.output == Data("abstract".utf8), "\(pasted.error)")
        await handle.release()
        let doctor = try await ChildProcess.run(
            TransferKitExecutable.defaultPath, arguments: ["doctor"], environment: server.environment)
        #expect(doctor.status == 0, "\(doctor.outputText)")
    }
}

extension WestonSuites {
    /// The opt-in focus-surface fallback against weston on Xvfb: no data control, a seat with a keyboard, and a shell
    /// that gives a new toplevel keyboard focus (wl-clipboard's own fallback works there too).
    @Suite(
        "Compositors without data control: the focus-surface fallback", .timeLimit(.minutes(5)),
        .enabled(
            if: westonPresent && x11ToolsPresent && SystemTool.exists("wl-copy"),
            "needs weston, Xvfb, xclip and wl-clipboard (Debian: weston, xvfb, xclip, wl-clipboard)"))
    struct FocusSurfaceFallbackTests {
        @Test("A write through the focus surface is read by wl-paste; the surface is gone once the write returns")
        func write() async throws {
            let weston = try await WestonCompositor.start(seat: true)
            defer { weston.stop() }
            let clipboard = try await Clipboard(
                backend: .waylandFocusSurface, environment: weston.environment, timeout: waylandPatience)
            defer { clipboard.close() }
            #expect(clipboard.protocolName == "Wayland (wl_data_device, focus surface)")
            let handle = try await clipboard.write([TransferProvider(data: Data("focused".utf8), type: .utf8PlainText)])
            let backend = try #require(clipboard.connection.backend as? WaylandBackend)
            #expect(!backend.isShowingFocusSurface, "the window stays only while the selection is set")
            let types = try await runTool(
                ["/usr/bin/timeout", "60", SystemTool.path("wl-paste"), "--list-types"], environment: weston.environment
            )
            #expect(
                String(decoding: types.output, as: UTF8.self).contains("text/plain;charset=utf-8"), "\(types.error)")
            let pasted = try await runTool(
                [
                    "/usr/bin/timeout", "60", SystemTool.path("wl-paste"), "--no-newline", "--type",
                    "text/plain;charset=utf-8",
                ],
                environment: weston.environment)
            #expect(pasted.output == Data("focused".utf8), "\(pasted.error)")
            await handle.release()
        }

        @Test(
            "A read through the focus surface gets what wl-copy offers, by the library and by paste --backend wayland-focus"
        )
        func read() async throws {
            let weston = try await WestonCompositor.start(seat: true)
            defer { weston.stop() }
            let file = weston.directory.appendingPathComponent("copied.txt")
            try Data("from wl-copy".utf8).write(to: file)
            let copy = try BackgroundProcess(
                [SystemTool.path("wl-copy"), "--type", "text/plain;charset=utf-8"], environment: weston.environment,
                inputFile: file.path)
            #expect(try await copy.exitStatus() == 0)
            let clipboard = try await Clipboard(
                backend: .waylandFocusSurface, environment: weston.environment, timeout: waylandPatience)
            defer { clipboard.close() }
            let offered = try await clipboard.offeredTypes().map(\.name)
            #expect(offered.contains("text/plain;charset=utf-8"), "\(offered)")
            let provider = try #require(try await clipboard.read().first)
            #expect(try await provider.loadObject(ofClass: String.self) == "from wl-copy")
            let paste = try await weston.transferkit(["paste", "--backend", "wayland-focus"])
            #expect(paste.status == 0, "\(paste.errorText)")
            #expect(paste.outputText == "from wl-copy")
            let watch = await #expect(throws: ClipboardError.self) {
                for try await _ in clipboard.changes() {}
            }
            #expect(watch?.code == .protocolUnavailable)
            let doctor = try await weston.transferkit(["doctor"])
            #expect(doctor.outputText.contains("focus-surface fallback (--backend wayland-focus): possible"))
            // With a seat, the default choice's error suggests the fallback.
            let defaultPaste = try await weston.transferkit(["paste", "--list"])
            #expect(
                defaultPaste.status == 2 && defaultPaste.errorText.contains("transferkit --backend wayland-focus"),
                "\(defaultPaste.errorText)")
            let primary = await #expect(throws: ClipboardError.self) {
                _ = try await clipboard.offeredTypes(on: .primary)
            }
            #expect(primary?.code == .protocolUnavailable)
        }

        @Test("Without a seat (weston headless) the fallback is protocolUnavailable, naming wl_seat")
        func noSeat() async throws {
            let weston = try await WestonCompositor.start()
            defer { weston.stop() }
            let error = await #expect(throws: ClipboardError.self) {
                _ = try await Clipboard(
                    backend: .waylandFocusSurface, environment: weston.environment, timeout: waylandPatience)
            }
            #expect(error?.code == .protocolUnavailable)
            #expect(error?.message.contains("has no wl_seat, which the focus-surface fallback needs") == true)
        }
    }
}
