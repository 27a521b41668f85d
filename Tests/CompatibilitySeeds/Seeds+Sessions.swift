import TransferKitCompatibility

// What an app adds, in a file of its own, to bring the seeds' classes into TransferSessions' lists and sessions
// through `IdentifiedItemProviderObject`: an identity for each class, by a key path or by a closure. The seeds'
// declarations stay as they are.

extension Model: ItemProviderIdentifiable {
    static var itemProviderIdentity: ItemProviderIdentity<Model, String> { ItemProviderIdentity(\.name) }
}

extension CustomModule: ItemProviderIdentifiable {
    static var itemProviderIdentity: ItemProviderIdentity<CustomModule, String> {
        ItemProviderIdentity { module in module.type == .Button ? "button" : "switch" }
    }
}
