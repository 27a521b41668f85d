import TransferClipboardCLI
import TransferKitCLI

await TransferKitTool(commands: TransferKitTool.standardCommands() + TransferKitTool.clipboardCommands()).main()
