// The display layer's vocabulary (ClipboardError, ClipboardBackendChoice, ClipboardOfferedType,
// ClipboardTypeMapping…), which this module's API names: `import TransferDesktop` gives it, as
// `import TransferClipboard` does.
@_exported public import TransferDisplay
