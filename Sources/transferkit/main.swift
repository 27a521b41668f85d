import TransferKitCLI

await TransferKitTool(commands: TransferKitTool.standardCommands()).main()
