import TransferClipboard
import TransferKitCLI

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `transferkit doctor`: reports what the session offers the clipboard and which display protocol the other
/// clipboard commands would use, and why.
struct DoctorCommand: Command {
    /// Creates the command.
    init() {}

    /// `"doctor"`.
    var name: String { "doctor" }
    /// One line of help.
    var abstract: String { "Report what this session offers the clipboard, and which protocol copy and paste use." }
    /// What it reports, and examples.
    var discussion: String {
        """
        Lists the variables the clipboard reads, whether the Wayland compositor (WAYLAND_DISPLAY) and the X server
        (DISPLAY) answer, the compositor's globals that matter (the data-control protocols, wl_data_device_manager,
        wl_seat, xdg_wm_base, wl_shm, with their versions, and whether --backend wayland-focus can work there), and
        which protocol copy and paste choose by default and why, or the error they would meet, and whether the
        D-Bus session bus answers and has the document portal (running, activatable or absent), through which files
        reach sandboxed (Flatpak) applications. With --json the same is one object. Exit status 0 when the clipboard
        is usable, 1 when it is not. Each server gets at most 10 seconds to answer.

        It reports the terminal too: whether the session is a terminal one (SSH_TTY is set, or neither DISPLAY nor
        WAYLAND_DISPLAY is), whether the process has a controlling terminal, and the multiplexer in between (tmux
        when TMUX is set, GNU screen when STY is); in such a session without a display server, copy --terminal and
        paste --terminal reach the clipboard of the terminal emulator through OSC 52.

        EXAMPLES:
          transferkit doctor
          transferkit doctor --json
        """
    }

    /// The accepted options.
    var signature: CommandSignature {
        CommandSignature(options: [.init(names: ["--json"], help: "Print the report as one JSON object.")])
    }

    /// How long each server may take to answer: a diagnosis should not wait as long as a paste.
    static let timeout: Duration = .seconds(10)

    /// Examines the session and prints the report.
    func run(_ arguments: ParsedArguments, in context: CommandContext) async throws -> ExitCode {
        let report = await ClipboardSessionReport.examine(
            environment: ProcessInfo.processInfo.environment, timeout: Self.timeout)
        if arguments.flag("--json") {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            try context.standardOutput.writeLine(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            for line in Self.lines(report) { try context.standardOutput.writeLine(line) }
        }
        return report.isUsable ? .success : .failure
    }

    /// The report's line on the terminal's clipboard (OSC 52).
    static func terminalLine(_ report: ClipboardSessionReport) -> String {
        let terminal = report.terminal
        var line = "Terminal: "
        line += terminal.isTerminalSession ? "a terminal session" : "not a terminal session"
        line += terminal.hasControllingTerminal ? ", with a controlling terminal" : ", without a controlling terminal"
        if terminal.multiplexer != .none { line += ", inside \(terminal.multiplexer.rawValue)" }
        if terminal.hasControllingTerminal {
            line +=
                report.isUsable
                ? "; copy --terminal and paste --terminal reach the terminal's clipboard (OSC 52)"
                : "; no display server answers: use copy --terminal and paste --terminal (OSC 52)"
        }
        return line
    }

    /// The text report, a line each.
    static func lines(_ report: ClipboardSessionReport) -> [String] {
        var lines = ["Variables:"]
        for variable in report.variables { lines.append("  \(variable.name)=\(variable.value ?? "(unset)")") }
        let wayland = report.wayland
        if let problem = wayland.problem {
            lines.append("Wayland: not usable: \(problem.message) (\(problem.code))")
        } else {
            lines.append("Wayland: compositor at \(wayland.socket ?? "?") answers")
            let width = wayland.globals.map(\.interface.count).max() ?? 0
            for global in wayland.globals {
                let padding = String(repeating: " ", count: width - global.interface.count)
                lines.append("  \(global.interface)\(padding)  \(global.version.map { "v\($0)" } ?? "absent")")
            }
            lines.append("  data control: \(wayland.dataControl ?? "none")")
            lines.append(
                "  focus-surface fallback (--backend wayland-focus): "
                    + (wayland.hasFocusSurfaceGlobals ? "possible" : "not possible (a global it needs is missing)"))
        }
        let x11 = report.x11
        if let problem = x11.problem {
            lines.append("X11: not usable: \(problem.message) (\(problem.code))")
        } else {
            let xfixes = x11.hasXFixes == true ? "with XFIXES" : "without XFIXES (watching does not work)"
            lines.append("X11: server at DISPLAY=\(x11.display ?? "?") answers (\(x11.vendor ?? "?"), \(xfixes))")
        }
        if let backend = report.automatic.backend {
            lines.append("Clipboard: \(backend), because \(report.automatic.reason ?? "it answered")")
        } else if let problem = report.automatic.problem {
            lines.append("Clipboard: not usable: \(problem.message) (\(problem.code))")
        }
        lines.append(terminalLine(report))
        let dbus = report.dbus
        if let problem = dbus.problem {
            lines.append("D-Bus: not usable: \(problem.message) (\(problem.code))")
        } else {
            lines.append(
                "D-Bus: session bus at \(dbus.address ?? "?") answers; document portal (files for sandboxed apps): "
                    + (dbus.documentPortal ?? "?"))
        }
        return lines
    }
}
