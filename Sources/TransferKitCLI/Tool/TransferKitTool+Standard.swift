public import TransferKit
public import UniformTypes

extension TransferKitTool {
    /// The commands that work anywhere, in the order `--help` lists them: `types`, `pack`, `inspect`, `extract`,
    /// `convert`, `convert-type`, `check` and `reencode`. (The `transferkit` executable adds the clipboard commands of
    /// `TransferClipboardCLI` after them.)
    ///
    /// An adopter builds a tool that knows their model types by passing a registry with their
    /// readers registered:
    ///
    /// ```swift
    /// let registry = TransferKitTool.standardRegistry()
    /// try registry.register(Card.self)
    /// await TransferKitTool(name: "cards", commands: TransferKitTool.standardCommands(registry: registry)).main()
    /// ```
    /// - Parameters:
    ///   - catalog: The type catalogue for lookups, type inference and conformance.
    ///   - registry: The readers `check` and `reencode` decode with; `nil` (the default) for
    ///     ``standardRegistry(catalog:)`` of `catalog`, made only when one of them runs, so that the other commands
    ///     do not pay for registering readers at start.
    public static func standardCommands(
        catalog: TypeCatalog = .shared, registry: TransferRegistry? = nil
    ) -> [any Command] {
        [
            TypesCommand(catalog: catalog),
            PackCommand(catalog: catalog),
            InspectCommand(catalog: catalog),
            ExtractCommand(catalog: catalog),
            ConvertCommand(),
            ConvertTypeCommand(catalog: catalog),
            CheckCommand(registry: registry, catalog: catalog),
            ReencodeCommand(registry: registry, catalog: catalog),
        ]
    }

    /// A new registry holding the generic readers: any JSON document for `public.json` (compared
    /// by value: key order and number spelling do not matter) and TransferKit's `String` for every
    /// plain-text type (UTF-8, UTF-16, byte-order marks), both at low priority so that an adopter's own readers for the
    /// same or more specific types win.
    public static func standardRegistry(catalog: TypeCatalog = .shared) -> TransferRegistry {
        let registry = TransferRegistry(catalog: catalog)
        // Two distinct readers on distinct types in a fresh registry cannot conflict.
        try? registry.register(JSONDocument.self, priority: .low)
        try? registry.register(String.self, priority: .low)
        return registry
    }
}
