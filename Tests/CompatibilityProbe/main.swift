import Foundation
import TransferKitCLI
import TransferKitCompatibility
import TransferSessions

@testable import TransferKitCompatibilitySeeds

// `transferkit-compatibility-probe drop-models PATH`: the destination of a cross-process drag of seed 000's `Model`
// (through `IdentifiedItemProviderObject`): connects to the session published at PATH, drops it into an empty list,
// and prints the operation and each dropped model as `name|character|favorite`, one per line (exit 1 on an error).
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "drop-models" {
    let list = TransferList<IdentifiedItemProviderObject<Model>>([])
    do {
        // A long limit: the source is a test process whose task pool the whole suite can keep busy for a minute.
        let remote = try await RemoteDragSession.connect(toPath: CommandLine.arguments[2], timeout: .seconds(200))
        let result = try await list.drop(remote, at: 0)
        print(result.operation)
        for model in list.elements.map(\.object) {
            print("\(model.name)|\(model.character)|\(model.favorite)")
        }
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("drop-models: \(error)\n".utf8))
        exit(1)
    }
}

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
