import TransferClipboard
import TransferDesktop
import UniformTypes

extension DesktopCommandOptions {
    /// Opens the window of `drag` or `drop` on the display server `choice` names.
    /// - Throws: `ClipboardError` when no display server answers, or it cannot show a window for drag and drop.
    static func openWindow(
        title: String, lines: [String], choice: ClipboardBackendChoice, catalog: TypeCatalog,
        maximumDropSize: Int64 = DesktopWindow.Options.defaultMaximumDropSize
    ) async throws -> DesktopWindow {
        try await ClipboardCommandOptions.withDoctorHint {
            try await DesktopWindow.open(
                DesktopWindow.Options(
                    title: title, lines: lines, backend: choice, timeout: ClipboardCommandOptions.timeout,
                    catalog: catalog, maximumDropSize: maximumDropSize))
        }
    }
}
