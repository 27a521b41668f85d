package import TransferKit
package import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An item's header as a walk over an archive meets it.
package struct WalkedItem {
    /// The item's position in the archive, from 0.
    package var index: Int
    /// The name the sender suggested for a file made from the item.
    package var suggestedName: String?
    /// The item's metadata.
    package var metadata: [String: TransferMetadataValue]
}

/// A representation's header as a walk over an archive meets it.
package struct WalkedRepresentation {
    /// The position of its item in the archive, from 0.
    package var itemIndex: Int
    /// Its position in its item, from 0.
    package var index: Int
    /// Its uniform type.
    package var type: UniformType
    /// The payload's length in bytes.
    package var length: UInt64
}

/// What to do with the payload of the representation just met.
package enum PayloadHandling {
    /// Read past it (its checksum is still verified).
    case skip
    /// Hand its bytes, chunk by chunk, to the closure.
    case read((UnsafeRawBufferPointer) throws -> Void)
}

/// Walks an archive of either form item by item, representation by representation, always to its end: a walk
/// that returns has checked the whole archive (every checksum, the keys, nothing after it), so no command can
/// report success on an archive that `inspect` rejects.
///
/// The CBOR form streams from the descriptor with constant memory; the JSON form is read whole
/// (within `Limits.maxJSONDocumentSize`), then walked the same way.
package enum ArchiveWalker {
    /// Walks `file`; returns the archive's version. `onDeclarations` gets the archive's type declarations (format
    /// 1.1; empty when it carries none) before the first item.
    @discardableResult
    package static func walk(
        _ file: InputFile, format: TransferArchiveFormat, limits: TransferArchive.Limits = .default,
        declarations onDeclarations: ([UniformTypeDeclaration]) throws -> Void = { _ in },
        item onItem: (WalkedItem) throws -> Void,
        representation onRepresentation: (WalkedRepresentation) throws -> PayloadHandling,
        checksum onChecksum: (WalkedRepresentation, UInt32) throws -> Void = { _, _ in }
    ) throws -> (major: Int, minor: UInt64) {
        switch format {
        case .cbor:
            var reader = try TransferArchiveReader(
                fileDescriptor: file.fileDescriptor, prefix: file.pending, limits: limits)
            try onDeclarations(reader.declarations)
            while let item = try reader.nextItem() {
                try onItem(
                    WalkedItem(index: item.index, suggestedName: item.suggestedName, metadata: item.metadata))
                while let header = try reader.nextRepresentation() {
                    let walked = WalkedRepresentation(
                        itemIndex: header.itemIndex, index: header.index, type: header.type, length: header.length)
                    switch try onRepresentation(walked) {
                    case .skip: try onChecksum(walked, try reader.skipPayload())
                    case .read(let body): try onChecksum(walked, try reader.readPayload(body))
                    }
                }
            }
            return (reader.version.major, reader.minorVersion)
        case .json:
            let (archive, minorVersion) = try TransferArchive.decodingText(
                [UInt8](try file.readArchive(limits: limits)), limits: limits)
            try onDeclarations(archive.declarations)
            for (itemIndex, item) in archive.items.enumerated() {
                try onItem(
                    WalkedItem(index: itemIndex, suggestedName: item.suggestedName, metadata: item.metadata))
                for (index, representation) in item.representations.enumerated() {
                    let walked = WalkedRepresentation(
                        itemIndex: itemIndex, index: index, type: representation.type,
                        length: UInt64(representation.data.count))
                    switch try onRepresentation(walked) {
                    case .skip: break
                    case .read(let body): try representation.data.withUnsafeBytes { try body($0) }
                    }
                    try onChecksum(walked, representation.checksum)
                }
            }
            return (TransferArchive.currentVersion.major, minorVersion)
        }
    }
}
