import TransferClipboard
import TransferKitCLI
import TransferKitPlatform
import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The options the clipboard commands share, and the clipboard they open.
enum ClipboardCommandOptions {
    /// `--primary` and `--backend`.
    static let options: [CommandSignature.Option] = [
        .init(names: ["--primary"], help: "Use the primary selection (middle-click paste) instead of the clipboard."),
        .init(
            names: ["--backend"], valueName: "x11|wayland|wayland-focus",
            help: "The display protocol; by default Wayland when WAYLAND_DISPLAY is set (X11 if that fails), else X11. "
                + "wayland-focus: a compositor without data control, through a window that flashes and takes focus."),
    ]

    /// The longest wait for the display server or another application at each step: generous, because a busy
    /// desktop (or a test machine) can be slow to answer, and a serving copy gives up a stuck paste only then.
    static let timeout: Duration = .seconds(60)

    /// The selection the command line names.
    static func selection(_ arguments: ParsedArguments) -> ClipboardSelection {
        arguments.flag("--primary") ? .primary : .clipboard
    }

    /// Connects to the display server `environment` (and `--backend`) names.
    /// - Parameter environment: This process's variables, for a caller that has read them already.
    /// - Throws: ``UsageError`` for an unknown `--backend`; `ClipboardError` when no display server answers.
    static func open(
        _ arguments: ParsedArguments, catalog: TypeCatalog, environment: [String: String] = Syscall.environment()
    ) async throws -> Clipboard {
        let choice: ClipboardBackendChoice
        switch arguments.value("--backend") {
        case nil: choice = .automatic
        case "x11": choice = .x11
        case "wayland": choice = .wayland
        case "wayland-focus": choice = .waylandFocusSurface
        case let other?:
            throw UsageError("'\(other)' is not a display protocol (expected x11, wayland or wayland-focus)")
        }
        return try await withDoctorHint {
            try await Clipboard(backend: choice, environment: environment, timeout: timeout, catalog: catalog)
        }
    }

    /// Runs `body`, which connects to the display server, adding to a failure to connect where to look next.
    static func withDoctorHint<R>(_ body: () async throws -> R) async throws -> R {
        do {
            return try await body()
        } catch let error as ClipboardError
            where [.noDisplay, .connectionFailed, .protocolUnavailable, .timedOut].contains(error.code)
        {
            var error = error
            if [.noDisplay, .connectionFailed].contains(error.code),
                let hint = TerminalCommandOptions.hint(environment: Syscall.environment())
            {
                error.message += " " + hint
            }
            error.message += " Run 'transferkit doctor' for what this session offers."
            throw error
        }
    }

    /// The duration a value such as `500ms`, `30s`, `2m` or `1h` names: a whole number and one unit.
    /// - Throws: ``UsageError`` for anything else (no unit, a fraction, a sign, an unknown unit, an overflow).
    static func duration(_ value: String, option: String) throws(UsageError) -> Duration {
        let digits = value.prefix { $0.isASCII && $0.isNumber }
        let units: [String: Int64] = ["ms": 1, "s": 1000, "m": 60_000, "h": 3_600_000]
        guard !digits.isEmpty, let count = Int64(digits), let unit = units[String(value.dropFirst(digits.count))]
        else {
            throw UsageError("\(option) needs a duration such as 500ms, 30s, 2m or 1h (got '\(value)')")
        }
        let (milliseconds, overflow) = count.multipliedReportingOverflow(by: unit)
        guard !overflow else { throw UsageError("\(option) \(value) is too long") }
        return .milliseconds(milliseconds)
    }

    /// The uniform type a `--type` value names: an identifier, or a MIME type (it has a `/`).
    static func type(_ value: String, catalog: TypeCatalog) throws -> UniformType {
        try TypeArgument.type(value, catalog: catalog)
    }
}
