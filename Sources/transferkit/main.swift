import TransferClipboardCLI
import TransferKitCLI
import TransferKitPlatform

// Before any thread exists: every thread allocates from the C library's main arena (see ProcessAllocator).
ProcessAllocator.useOneArena()
// Then, still before any thread exists: a background copy forks its serving copy here (one process start, not two).
CopyCommandFork.forkServingCopyIfAsked()
await TransferKitTool(commands: TransferKitTool.standardCommands() + TransferKitTool.clipboardCommands()).main()
