// Apple's spellings of the item-provider APIs on platforms without them. On Apple platforms (where Darwin can be
// imported) every file of this module compiles to nothing but these re-exports, so a shared file that imports
// TransferKitCompatibility gets Apple's own NSItemProvider, UTType and CoreTransferable there. The exceptions are
// ItemProvider/ItemProviderCompatible.swift, ItemProvider/TransferProvider+CompletionHandlers.swift and
// Progress/TransferProgress+Foundation.swift: they add completion-handler spellings to TransferKit's own types, which
// exist on every platform and clash with nothing.
@_exported public import Foundation
@_exported public import TransferKit
@_exported public import UniformTypes
