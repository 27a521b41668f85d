import TransferDisplay
import TransferKit
import TransferKitPlatform
import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One snapshot of a selection: an archive file in the keeper's spool folder (unnamed, or a file of the history),
/// and the provider that serves it: small payloads from memory within the keeper's budget, the others from the file
/// with `pread`, so any number of pastes read it at once with one chunk each in memory.
final class KeptSnapshot: Sendable {
    /// The item, serving every kept representation.
    let provider: TransferProvider
    /// The names the owner offered.
    let offered: [String]
    /// The payloads' bytes in all.
    let byteCount: UInt64
    /// Whether the owner offered its files as cut (`x-special/gnome-copied-files` starting with `cut`, or KDE's
    /// `application/x-kde-cutselection` of `1`).
    let isCut: Bool
    /// Each representation's type, length and checksum, in order: equal for snapshots of equal content.
    let content: [Content]
    /// When the owner's expiry hint (`application/x-transferkit-expires`) says the snapshot must be dropped.
    let deadline: ContinuousClock.Instant?
    private let budget: MemoryBudget
    private let reserved: Int

    private init(
        provider: TransferProvider, offered: [String], byteCount: UInt64, isCut: Bool, content: [Content],
        deadline: ContinuousClock.Instant?, budget: MemoryBudget, reserved: Int
    ) {
        self.content = content
        self.provider = provider
        self.offered = offered
        self.byteCount = byteCount
        self.isCut = isCut
        self.deadline = deadline
        self.budget = budget
        self.reserved = reserved
    }

    deinit {
        budget.release(reserved)
    }

    /// One representation as ``content`` lists it.
    struct Content: Sendable, Hashable {
        var type: UniformType
        var length: UInt64
        var checksum: UInt32
    }

    /// What taking a snapshot came to.
    enum Outcome: Sendable {
        case kept(KeptSnapshot)
        case skipped(ClipboardKeeper.SkipReason)
        /// The selection was empty by the time it was read.
        case gone
    }

    /// The identifier GNOME's file list is read as (its first line is `copy` or `cut`).
    static let gnomeCopiedFiles = UniformType(exportedAs: "org.transferkit.gnome-copied-files")

    /// The identifier KDE's cut mark is read as (`1` when the files were cut).
    static let kdeCutSelection = UniformType(exportedAs: "org.transferkit.kde-cut-selection")

    /// Snapshots every type `selection` offers into one archive, as `paste --archive` does: the clipboard's lazily
    /// loading item written by the archive writer, one chunk at a time.
    ///
    /// A snapshot with the same content as `previous` (every type, length and checksum) adds nothing to the history.
    /// The owner's bytes count against ``ClipboardKeeper/Options/maximumSnapshotSize`` as they arrive; a snapshot
    /// that fails for any reason (the size, cancellation by the keeper's deadline or a new owner, a damaged archive)
    /// leaves no file behind.
    static func take(
        of selection: ClipboardSelection, offered: [String], keeper: ClipboardKeeper, budget: MemoryBudget,
        replacing previous: KeptSnapshot?
    ) async -> Outcome {
        let options = keeper.options
        let size = ClipboardByteBudget(limit: max(0, options.maximumSnapshotSize)) { limit in
            ClipboardError(
                code: .transferFailed,
                message: "The owner's representations take more than \(limit) bytes, the keeper's maximumSnapshotSize.")
        }
        var written: String?
        do {
            guard let source = try await keeper.clipboard.read(from: selection, wrappingStreams: size.counting).first
            else { return .gone }
            // Read again just now: an owner that took the selection meanwhile may be a secret.
            if let reason = ClipboardKeeper.Policy.refusal(source) { return .skipped(reason) }
            guard !source.registeredTypes.isEmpty else { return .skipped(.nothingReadable) }
            // Streams from the owner have no length: the writer spools each beside the snapshot first.
            source.temporaryDirectory = options.spoolFolder
            let (file, path) = try await write(source, selection: selection, options: options)
            written = path
            // A writer that left out a representation whose load failed still wrote an archive: not one to keep.
            if size.isExceeded { throw size.refusal }
            try Task.checkCancellation()
            let snapshot = try index(
                file, offered: offered, deadline: source.expirationDate.map(ClipboardKeeper.Policy.deadline),
                budget: budget, catalog: keeper.clipboard.catalog)
            if let path {
                // The history is trimmed only for a snapshot that stays in it: trimmed before the comparison, a
                // repeated copy dropped the oldest entry and added none.
                if let previous, previous.content == snapshot.content {
                    Syscall.unlink(path)
                } else {
                    ClipboardKeeper.trimHistory(options.historyFolder(of: selection), keeping: options.historyLength)
                }
            }
            return .kept(snapshot)
        } catch {
            if let written { Syscall.unlink(written) }
            if size.isExceeded { return .skipped(.tooLarge) }
            return .skipped(.failed(Self.message(of: error)))
        }
    }

    /// The item of the snapshot archive at `url`, served from the file (nothing is read until it is loaded).
    ///
    /// - Throws: ``ClipboardError`` with `spoolUnavailable` when the file cannot be opened; `TransferArchiveError`
    ///   when it is no archive or is damaged (every checksum is checked first).
    static func provider(fromArchiveAt url: URL, catalog: TypeCatalog) throws -> TransferProvider {
        let file: SharedDescriptor
        let ownership: Syscall.Ownership
        do {
            file = SharedDescriptor(adopting: try Syscall.openForReadingNoFollow(url.path))
            ownership = try Syscall.ownership(file.descriptor)
        } catch {
            throw ClipboardError(
                code: .spoolUnavailable, message: "Cannot open the kept snapshot \(url.path): \(error.reason).",
                cause: error, source: url.path)
        }
        guard ownership.isRegularFile, ownership.isPrivateToThisUser else {
            throw ClipboardError(
                code: .spoolUnavailable,
                message: "The kept snapshot \(url.path) is not a file of this user that only it may write (mode "
                    + "\(String(ownership.permissions, radix: 8))); the keeper reads only its own snapshots. Remove it.",
                source: url.path)
        }
        let snapshot = try index(
            file, offered: [], deadline: nil,
            budget: MemoryBudget(capacity: 0), catalog: catalog)
        return snapshot.provider
    }

    /// Writes the archive of `source`: into the history as a named file, else into an unnamed file in the spool
    /// folder, which disappears with its last descriptor however the keeper ends.
    private static func write(
        _ source: TransferProvider, selection: ClipboardSelection, options: ClipboardKeeper.Options
    ) async throws -> (file: SharedDescriptor, historyPath: String?) {
        // An item that expires is kept only until then: never in the history.
        guard options.historyLength > 0, source.expirationDate == nil else {
            let descriptor: Int32
            do {
                descriptor = try TemporaryFile.makeUnlinked(prefix: "snapshot", in: options.spoolFolder.path)
            } catch {
                throw ClipboardError(
                    code: .spoolUnavailable,
                    message: "Cannot create a spool file in \(options.spoolFolder.path): \(error.reason).",
                    cause: error, source: options.spoolFolder.path)
            }
            let file = SharedDescriptor(adopting: descriptor)
            var writer = TransferArchiveWriter(fileDescriptor: descriptor)
            try await writer.write(providers: [source])
            return (file, nil)
        }
        let folder = options.historyFolder(of: selection)
        let path = folder.appendingPathComponent(ClipboardKeeper.historyName()).path
        // The file is in place only once it is whole (renamed at the end); one that cannot be read back is removed.
        try await AtomicFile.write(toPath: path) { descriptor in
            // The clipboard's content is as private as the folder it sits in: 0600, not the umask's 0644.
            try Syscall.setPermissions(descriptor, 0o600)
            var writer = TransferArchiveWriter(fileDescriptor: descriptor)
            try await writer.write(providers: [source])
        }
        let file: SharedDescriptor
        do {
            file = SharedDescriptor(adopting: try Syscall.openForReading(path))
        } catch {
            throw ClipboardError(
                code: .spoolUnavailable, message: "Cannot open the snapshot just written, \(path): \(error.reason).",
                cause: error, source: path)
        }
        return (file, path)
    }

    /// Walks the archive in `file` (checking every checksum) and makes its first item's provider: each payload that
    /// fits in `budget` is held in memory, the others are read from the file when pasted.
    private static func index(
        _ file: SharedDescriptor, offered: [String], deadline: ContinuousClock.Instant?, budget: MemoryBudget,
        catalog: TypeCatalog
    ) throws -> KeptSnapshot {
        var reader = try TransferArchiveReader(bytesAt: file)
        let provider = TransferProvider(catalog: catalog)
        var byteCount: UInt64 = 0
        var reserved = 0
        var isCut = false
        var content: [Content] = []
        func indexItem() throws {
            guard let item = try reader.nextItem() else { return }
            provider.suggestedName = item.suggestedName
            provider.metadata = item.metadata
            while let header = try reader.nextRepresentation() {
                byteCount += header.length
                let type = header.type
                if header.length <= UInt64(Int.max), budget.reserve(Int(header.length)) {
                    reserved += Int(header.length)
                    var data = Data(capacity: Int(header.length))
                    let checksum = try reader.readPayload { data.append(contentsOf: $0) }
                    content.append(Content(type: type, length: header.length, checksum: checksum))
                    let kept = data
                    provider.registerDataRepresentation(for: type) { _ in kept }
                    if type == gnomeCopiedFiles { isCut = isCut || kept.starts(with: Data("cut".utf8)) }
                    if type == kdeCutSelection { isCut = isCut || kept.starts(with: Data("1".utf8)) }
                    continue
                }
                guard let offset = reader.payloadOffset else { break }
                let checksum = try reader.skipPayload()
                content.append(Content(type: type, length: header.length, checksum: checksum))
                let length = header.length
                let name = "the kept \(type.identifier)"
                provider.registerStreamRepresentation(for: type) { _ in
                    TransferByteStream(range: Int64(offset), length: length, of: file, name: name)
                }
                if type == gnomeCopiedFiles {
                    isCut = isCut || startsWithCut(file, at: Int64(offset), length: length)
                }
            }
        }
        // A damaged archive throws part-way: what it reserved goes back to the budget, or the cap would shrink for
        // the keeper's lifetime.
        do {
            try indexItem()
        } catch {
            budget.release(reserved)
            throw error
        }
        return KeptSnapshot(
            provider: provider, offered: offered, byteCount: byteCount, isCut: isCut || provider.isCut,
            content: content,
            deadline: deadline,
            budget: budget, reserved: reserved)
    }

    /// Whether the payload at `offset` starts with `cut` (GNOME's file list of a cut).
    private static func startsWithCut(_ file: SharedDescriptor, at offset: Int64, length: UInt64) -> Bool {
        var head = [UInt8](repeating: 0, count: 3)
        guard length >= 3 else { return false }
        let count = head.withUnsafeMutableBytes { bytes in
            (try? Syscall.read(file.descriptor, into: bytes, atOffset: offset)) ?? 0
        }
        return count == 3 && head == Array("cut".utf8)
    }

    /// An error's message for a report line.
    static func message(of error: any Error) -> String {
        if let error = error as? ClipboardError { return "\(error.message) (\(error.code))" }
        if let error = error as? TransferError { return "\(error.message) (\(error.code))" }
        if let error = error as? TransferArchiveError { return "\(error.message) (\(error.code))" }
        return "\(error)"
    }
}

extension TransferArchiveReader {
    /// A reader of the archive in `file` from its first byte, whatever the descriptor's position.
    init(bytesAt file: SharedDescriptor) throws {
        do {
            try Syscall.rewind(file.descriptor)
        } catch {
            throw ClipboardError(
                code: .spoolUnavailable, message: "Cannot rewind a spool file: \(error.reason).", cause: error)
        }
        try self.init(fileDescriptor: file.descriptor)
    }
}
