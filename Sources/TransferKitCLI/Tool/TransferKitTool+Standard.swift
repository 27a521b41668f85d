public import UniformTypes

extension TransferKitTool {
    /// The commands of the `transferkit` executable, in the order `--help` lists them.
    /// - Parameter catalog: The type catalogue for lookups and conformance.
    public static func standardCommands(catalog: TypeCatalog = .shared) -> [any Command] {
        [TypesCommand(catalog: catalog)]
    }
}
