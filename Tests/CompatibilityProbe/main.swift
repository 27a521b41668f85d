import Foundation
import TransferKitCLI
import TransferKitCompatibility

@testable import TransferKitCompatibilitySeeds

// `transferkit-compatibility-probe reencode -` with a registry that decodes one seed class, named by the
// TRANSFERKIT_SEED environment variable (`Model` or `CustomModule`): both read public.data, so one at a time.
let registry = TransferKitTool.standardRegistry()
switch ProcessInfo.processInfo.environment["TRANSFERKIT_SEED"] {
case "Model": try registry.register(ItemProviderObject<Model>.self)
case "CustomModule": try registry.register(ItemProviderObject<CustomModule>.self)
default: break
}
await TransferKitTool(
    name: "transferkit-compatibility-probe", commands: TransferKitTool.standardCommands(registry: registry)
)
.main()
