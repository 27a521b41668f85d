import Foundation
import Synchronization
import TransferKit
import TransferKitCLI
import TransferKitPlatform

/// `paste --archive --format json`: the text form is read whole in memory, up to
/// `TransferArchive.Limits.maxJSONDocumentSize` (64 MiB), so the tool never writes one that it (or any reader with the
/// default limits) would refuse.
///
/// The owners' bytes are counted as they arrive, all representations together, and the snapshot is refused as soon as
/// they pass the limit (the text form holds every byte at least once), with one chunk in memory: an owner with an
/// endless or huge payload costs neither memory nor disk beyond the limit. Within it the representations go into an
/// unlinked temporary file in the binary form, which is then converted whole, and refused if the text outgrows the
/// limit (base64 takes a third more than the bytes).
extension PasteCommand {
    /// The bytes of every representation of one snapshot, counted together against a limit.
    final class SnapshotBudget: Sendable {
        /// The most bytes the representations may take together.
        let limit: Int
        private let used = Atomic<Int>(0)

        init(limit: Int) { self.limit = limit }

        /// Whether the representations passed the limit.
        var isExceeded: Bool { used.load(ordering: .acquiring) > limit }

        /// `stream` counted: the chunk that passes the limit throws instead of being handed on.
        @Sendable func counting(_ stream: TransferByteStream) -> TransferByteStream {
            TransferByteStream(length: stream.length, CountedChunks(stream: stream, budget: self))
        }

        /// Counts `count` more bytes.
        /// - Throws: ``TransferArchiveError`` with `limitExceeded` once the total passes the limit.
        func spend(_ count: Int) throws(TransferArchiveError) {
            let total = used.add(count, ordering: .acquiringAndReleasing).newValue
            guard total <= limit else { throw refusal }
        }

        /// Why the snapshot was refused.
        var refusal: TransferArchiveError {
            TransferArchiveError(
                code: .limitExceeded,
                message: "the clipboard's representations take more than \(limit) bytes, the most an archive's text "
                    + "form may hold (it is read whole in memory); snapshot it in the binary form (--format cbor)")
        }
    }

    /// A stream's chunks, each counted against a ``SnapshotBudget`` before it is handed on.
    struct CountedChunks: AsyncSequence, Sendable {
        typealias Element = Data
        let stream: TransferByteStream
        let budget: SnapshotBudget

        func makeAsyncIterator() -> Iterator { Iterator(base: stream.makeAsyncIterator(), budget: budget) }

        struct Iterator: AsyncIteratorProtocol {
            var base: TransferByteStream.AsyncIterator
            let budget: SnapshotBudget

            mutating func next() async throws -> Data? {
                guard let chunk = try await base.next() else { return nil }
                try budget.spend(chunk.count)
                return chunk
            }
        }
    }

    /// The text form of the snapshot of `providers`, whose streams `budget` counts.
    /// - Throws: ``TransferArchiveError`` with `limitExceeded` when the representations or the text pass the limit;
    ///   why a load or the temporary file failed.
    static func textSnapshot(of providers: [TransferProvider], budget: SnapshotBudget) async throws -> Data {
        let spool = try Spool.emptyFile(for: "the clipboard's snapshot")
        do {
            var writer = ArchiveOutput.writer(to: FileDescriptorOutput(fileDescriptor: spool.fileDescriptor))
            try await writer.write(providers: providers)
        } catch {
            // A load fails with the error the budget threw inside it: report the limit itself.
            if budget.isExceeded { throw budget.refusal }
            throw error
        }
        try Syscall.rewind(spool.fileDescriptor)
        let archive = try TransferArchive(decoding: try spool.readAll(limit: 2 * budget.limit + (1 << 20)))
        let text = try archive.encoded(as: .json)
        guard text.count <= budget.limit else {
            throw TransferArchiveError(
                code: .limitExceeded,
                message:
                    "the clipboard's snapshot takes \(text.count) bytes in the text form, more than \(budget.limit), "
                    + "the most an archive's text form may hold (it is read whole in memory); snapshot it in the "
                    + "binary form (--format cbor)")
        }
        return text
    }
}
