import TransferClipboard
import TransferKit
import TransferKitCLI
import TransferKitPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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
    /// The bytes of every representation of one snapshot, counted together against the text form's limit.
    typealias SnapshotBudget = ClipboardByteBudget

    /// A budget of `limit` bytes whose refusal says that the text form cannot hold the snapshot.
    static func snapshotBudget(limit: Int) -> SnapshotBudget {
        ClipboardByteBudget(limit: limit) { limit in
            TransferArchiveError(
                code: .limitExceeded,
                message: "the clipboard's representations take more than \(limit) bytes, the most an archive's text "
                    + "form may hold (it is read whole in memory); snapshot it in the binary form (--format cbor)")
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
