public import TransferKitCLI
public import UniformTypes

extension TransferKitTool {
    /// The commands of the Linux clipboard, which the `transferkit` executable lists after the standard ones:
    /// `copy`, `paste`, `watch`, `doctor` and `keep`, the drag-and-drop commands `drag` and `drop`, and `serve` and `sync`,
    /// another machine's clipboard through ssh.
    ///
    /// They need a display server (`WAYLAND_DISPLAY` or `DISPLAY`) and link the X11 and Wayland clients of
    /// `TransferClipboard`, so they live in this module rather than beside
    /// `TransferKitTool/standardCommands(catalog:registry:)`, which work anywhere. A tool of your own offers them by
    /// adding them to its list:
    ///
    /// ```swift
    /// await TransferKitTool(
    ///     name: "cards", commands: TransferKitTool.standardCommands() + TransferKitTool.clipboardCommands()
    /// ).main()
    /// ```
    /// - Parameter catalog: The type catalogue for type inference and the mapping to MIME types.
    /// - Returns: `copy`, `paste`, `drag`, `drop`, `watch`, `doctor`, `keep`, `serve` and `sync`, in that order.
    public static func clipboardCommands(catalog: TypeCatalog = .shared) -> [any Command] {
        [
            CopyCommand(catalog: catalog), PasteCommand(catalog: catalog), DragCommand(catalog: catalog),
            DropCommand(catalog: catalog), WatchCommand(catalog: catalog), DoctorCommand(),
            KeepCommand(catalog: catalog), ServeCommand(catalog: catalog), SyncCommand(catalog: catalog),
        ]
    }
}
