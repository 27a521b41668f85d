// Apple's spellings of the item-provider APIs on platforms without them. On Apple platforms (where Darwin can be
// imported) every file of this module compiles to nothing but these re-exports, so a shared file that imports
// TransferKitCompatibility gets Apple's own NSItemProvider, UTType and CoreTransferable there.
@_exported public import Foundation
@_exported public import TransferKit
@_exported public import UniformTypes
