// The clipboard's vocabulary (ClipboardError, ClipboardSelection, ClipboardTypeMapping, ClipboardWriteOptions…) is
// declared in the display layer beneath this module and TransferDesktop; `import TransferClipboard` gives it, and
// this module's documentation includes it (Scripts/docs.sh).
@_exported public import TransferDisplay
