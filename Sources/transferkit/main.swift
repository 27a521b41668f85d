import TransferClipboardCLI
import TransferKitCLI

// First, before any thread exists: a background copy forks its serving copy here (one process start, not two).
CopyCommandFork.forkServingCopyIfAsked()
await TransferKitTool(commands: TransferKitTool.standardCommands() + TransferKitTool.clipboardCommands()).main()
