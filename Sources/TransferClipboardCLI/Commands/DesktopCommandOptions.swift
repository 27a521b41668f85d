import TransferClipboard
import TransferKitCLI

/// What `drag` and `drop` share: the choice of display protocol, and their windows' titles.
enum DesktopCommandOptions {
    /// `--backend x11|wayland|automatic`.
    static let backend = CommandSignature.Option(
        names: ["--backend"], valueName: "x11|wayland|automatic",
        help: "The display protocol; by default (automatic) Wayland when WAYLAND_DISPLAY is set (X11 if that fails), "
            + "else X11.")

    /// The protocol `--backend` names, as the clipboard commands choose it.
    /// - Throws: ``UsageError`` for any other value.
    static func backendChoice(_ arguments: ParsedArguments) throws(UsageError) -> ClipboardBackendChoice {
        switch arguments.value("--backend") {
        case nil, "automatic": return .automatic
        case "x11": return .x11
        case "wayland": return .wayland
        case let other?:
            throw UsageError("'\(other)' is not a display protocol (expected x11, wayland or automatic)")
        }
    }
}
