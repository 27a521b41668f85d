import TransferClipboard
import TransferKitCLI
import TransferKitPlatform

/// The options of `copy --terminal` and `paste --terminal` (the terminal's clipboard through OSC 52), and the hint
/// that points a terminal session without a display server at them.
enum TerminalCommandOptions {
    /// `--terminal` and `--terminal-limit`.
    static let options: [CommandSignature.Option] = [
        .init(
            names: ["--terminal"],
            help: "Use the terminal's clipboard (OSC 52 through the controlling terminal) instead of a display server."),
        .init(
            names: ["--terminal-limit"], valueName: "BYTES",
            help: "With --terminal: the most bytes of text (default \(TerminalClipboardSequence.defaultTextLimit))."),
    ]

    /// The options that mean nothing to the terminal's clipboard, refused with `--terminal`.
    static func refuseWithTerminal(_ arguments: ParsedArguments, _ names: [String]) throws(UsageError) {
        for name in names where arguments.flag(name) || arguments.value(name) != nil {
            throw UsageError("\(name) does not apply to the terminal's clipboard (--terminal)")
        }
    }

    /// The `--terminal-limit` (``TerminalClipboardSequence/defaultTextLimit`` without it).
    /// - Throws: ``UsageError`` for a value that is no positive number, or the option without `--terminal`.
    static func textLimit(_ arguments: ParsedArguments) throws(UsageError) -> Int {
        guard let value = arguments.value("--terminal-limit") else { return TerminalClipboardSequence.defaultTextLimit }
        guard arguments.flag("--terminal") else { throw UsageError("--terminal-limit goes with --terminal") }
        guard let limit = Int(value), limit > 0 else {
            throw UsageError("--terminal-limit needs a positive number of bytes (got '\(value)')")
        }
        return limit
    }

    /// The terminal's clipboard on the controlling terminal, through the multiplexer `environment` names.
    /// - Throws: `ClipboardError.noTerminal` when the process has no controlling terminal.
    static func open(_ arguments: ParsedArguments, environment: [String: String]) throws -> TerminalClipboard {
        let limit = try textLimit(arguments)
        let device: TerminalDevice
        do throws(SystemError) {
            device = try TerminalDevice.openControlling()
        } catch {
            throw ClipboardError(
                code: .noTerminal,
                message: "--terminal needs a controlling terminal, and this process has none (/dev/tty: "
                    + "\(error.reason)); run it from a terminal, or through ssh -t", cause: error)
        }
        return TerminalClipboard(
            terminal: device, multiplexer: TerminalMultiplexer.detect(environment: environment), textLimit: limit)
    }

    /// The sentence added to a failure to reach a display server in a terminal session, or `nil` elsewhere.
    static func hint(environment: [String: String]) -> String? {
        guard ClipboardSessionReport.Terminal.isTerminalSession(environment: environment) else { return nil }
        let why =
            (environment["SSH_TTY"] ?? "").isEmpty ? "neither DISPLAY nor WAYLAND_DISPLAY is set" : "SSH_TTY is set"
        return "This is a terminal session (\(why)): --terminal copies and pastes text through the terminal's "
            + "clipboard (OSC 52)."
    }
}
