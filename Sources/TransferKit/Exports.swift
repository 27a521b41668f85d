// The archive moved to its own module, TransferArchive; code that imports TransferKit keeps seeing
// `TransferArchive`, its reader, writer, errors and metadata values without a second import.
@_exported public import TransferArchive
