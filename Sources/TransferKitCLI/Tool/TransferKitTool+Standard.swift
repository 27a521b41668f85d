extension TransferKitTool {
    /// The commands of the `transferkit` executable, in the order `--help` lists them.
    public static func standardCommands() -> [any Command] {
        []
    }
}
