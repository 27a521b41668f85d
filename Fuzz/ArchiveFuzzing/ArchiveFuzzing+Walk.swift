import Foundation
import TransferArchive

extension ArchiveFuzzing {
    /// How a streaming walk treats payloads and representations.
    struct WalkMode: CustomStringConvertible {
        /// What the walk does with payloads.
        enum Payloads: CaseIterable {
            /// Read every payload with `readPayload`.
            case readAll
            /// Skip every payload with `skipPayload`.
            case skipAll
            /// Read the even representations' payloads, skip the odd ones'.
            case alternate
            /// Leave odd items and odd representations unvisited, for `nextItem()`/`nextRepresentation()` to skip.
            case leaveUnvisited
        }

        /// The reader's chunk size: 1 to 64 bytes, so payloads cross many chunk boundaries.
        var chunkSize: Int
        var payloads: Payloads

        /// The mode for an input of `length` bytes, so that a reproducer replays the same way.
        init(length: Int) {
            chunkSize = length % 64 + 1
            payloads = Payloads.allCases[length / 64 % Payloads.allCases.count]
        }

        var description: String { "\(payloads), chunks of \(chunkSize)" }
    }

    /// Walks the binary form with ``TransferArchiveReader``.
    /// - Returns: The items with the representations that were read (all of them for ``WalkMode/Payloads/readAll``),
    ///   or `nil` when the reader threw.
    static func walk(_ bytes: [UInt8], mode: WalkMode, limits: TransferArchive.Limits) -> TransferArchive? {
        do {
            var reader = try TransferArchiveReader(bytes: bytes, limits: limits, chunkSize: mode.chunkSize)
            var archive = TransferArchive(declarations: reader.declarations)
            while let header = try reader.nextItem() {
                var item = TransferArchive.Item(suggestedName: header.suggestedName, metadata: header.metadata)
                if mode.payloads == .leaveUnvisited && header.index % 2 == 1 {
                    continue
                }
                while let representation = try reader.nextRepresentation() {
                    let odd = representation.index % 2 == 1
                    if mode.payloads == .leaveUnvisited && odd {
                        continue
                    }
                    if mode.payloads == .skipAll || (mode.payloads == .alternate && odd) {
                        try reader.skipPayload()
                        continue
                    }
                    var data = Data()
                    var largest = 0
                    try reader.readPayload { chunk in
                        largest = max(largest, chunk.count)
                        data.append(contentsOf: chunk)
                    }
                    guard largest <= mode.chunkSize, UInt64(data.count) == representation.length else {
                        violation("readPayload delivered a chunk or a length other than declared", bytes)
                    }
                    item.representations.append(TransferArchive.Representation(type: representation.type, data: data))
                }
                archive.items.append(item)
            }
            return archive
        } catch {
            return nil
        }
    }
}
