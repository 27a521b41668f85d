import TransferDisplay
import TransferKit
import TransferKitPlatform
import UniformTypes

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Keeps what is copied after the application that copied it exits: the clipboard of a desktop that has no
/// clipboard manager, on Wayland and X11.
///
/// While ``run(onEvent:)`` runs, each time another application takes a watched selection the keeper snapshots
/// **every** type it offers at once, as `transferkit paste --archive` does, into one archive file in its spool
/// folder; small payloads also stay in memory, up to ``Options/memoryCap`` bytes. When the selection becomes empty
/// because its owner went away (Wayland's compositor withdraws the selection; on X11 the owner's window is
/// destroyed), the keeper takes the selection and offers the last snapshot again, every type of it, reading each
/// paste lazily from the spool file; a file list copied as cut stays cut.
///
/// ```swift
/// let clipboard = try await Clipboard()
/// let keeper = ClipboardKeeper(clipboard: clipboard, options: .init(historyLength: 10))
/// let task = Task { try await keeper.run { event in print(event) } }
/// // … until the keeper should stop:
/// task.cancel()
/// ```
///
/// Never kept: an item offered with a password manager's hint (concealed) or marked transient; the keeper decides
/// from the offered names alone, before it reads any content, and forgets its last snapshot then, so a secret that
/// its application clears again leaves the clipboard empty rather than restoring what was copied before it. An item
/// with an expiry (`application/x-transferkit-expires`) is kept and offered again only until then, and never enters
/// the history. With a history, each snapshot stays as an archive file, newest first in ``history(of:in:)``, which
/// `transferkit copy` restores and `transferkit paste --from-history` reads.
public struct ClipboardKeeper: Sendable {
    /// What the keeper watches, where it spools, and how much it holds.
    public struct Options: Sendable, Hashable {
        /// The selections to keep; the clipboard by default.
        public var selections: [ClipboardSelection]
        /// The most bytes of snapshots held in memory (``defaultMemoryCap`` by default): a payload that does not fit
        /// in what is left is served from the spool file instead. 0 serves everything from the spool file.
        public var memoryCap: Int
        /// How many snapshots of each selection to keep as files in ``historyFolder(of:)``; 0 (the default) keeps
        /// none, and the spool file of the current snapshot has no name, so nothing is left behind however the
        /// keeper ends.
        public var historyLength: Int
        /// The folder for spool files and the history: ``ClipboardKeeper/defaultSpoolFolder(environment:)`` by
        /// default. It is created (mode 0700) when missing; an existing one (and its history folders) must be a
        /// folder, not a link, of this process's user that not every user may write, or ``ClipboardKeeper/run(onEvent:)``
        /// fails with `spoolUnavailable`.
        public var spoolFolder: URL
        /// The most bytes one snapshot may take, all its representations together (``defaultMaximumSnapshotSize`` by
        /// default): an owner that offers more (an endless one) is skipped as ``SkipReason/tooLarge`` as soon as it
        /// passes the limit, and nothing of it stays. It bounds the spool (one snapshot per selection, plus the one
        /// being taken) and the history (at most ``historyLength`` snapshots of this size).
        public var maximumSnapshotSize: Int
        /// The longest one snapshot may take (``defaultSnapshotTimeout`` by default): an owner that is slower (one
        /// that stalls an `INCR` transfer, or offers very many types) is skipped as ``SkipReason/timedOut``. A new
        /// owner does not wait for it: its copy pre-empts a snapshot under way (``SkipReason/preempted``).
        public var snapshotTimeout: Duration

        /// Options with the given settings.
        ///
        /// - Parameters:
        ///   - selections: See ``selections``.
        ///   - memoryCap: See ``memoryCap``.
        ///   - historyLength: See ``historyLength``.
        ///   - spoolFolder: See ``spoolFolder``.
        ///   - maximumSnapshotSize: See ``maximumSnapshotSize``.
        ///   - snapshotTimeout: See ``snapshotTimeout``.
        public init(
            selections: [ClipboardSelection] = [.clipboard], memoryCap: Int = Self.defaultMemoryCap,
            historyLength: Int = 0, spoolFolder: URL = ClipboardKeeper.defaultSpoolFolder(),
            maximumSnapshotSize: Int = Self.defaultMaximumSnapshotSize,
            snapshotTimeout: Duration = Self.defaultSnapshotTimeout
        ) {
            self.selections = selections
            self.memoryCap = memoryCap
            self.historyLength = historyLength
            self.spoolFolder = spoolFolder
            self.maximumSnapshotSize = maximumSnapshotSize
            self.snapshotTimeout = snapshotTimeout
        }

        /// 16 MiB: text, HTML and small images are served from memory; larger payloads from the spool file.
        public static var defaultMemoryCap: Int { 16 << 20 }

        /// 256 MiB: a large image or file list, not an endless owner's stream.
        public static var defaultMaximumSnapshotSize: Int { 256 << 20 }

        /// 30 seconds: ample for 256 MiB from a local owner; a stalled owner holds the keeper no longer.
        public static var defaultSnapshotTimeout: Duration { .seconds(30) }

        /// The folder of the snapshots of `selection` that the history keeps: `history/clipboard` or
        /// `history/primary` in ``spoolFolder``.
        public func historyFolder(of selection: ClipboardSelection) -> URL {
            spoolFolder.appendingPathComponent("history", isDirectory: true)
                .appendingPathComponent(selection.rawValue, isDirectory: true)
        }
    }

    /// Something the keeper did, reported to ``run(onEvent:)``'s closure.
    public enum Event: Sendable, Hashable, CustomStringConvertible {
        /// A new owner's content was snapshot: the names it offered, and the bytes kept in all.
        case kept(ClipboardSelection, offered: [String], byteCount: UInt64)
        /// A new owner's content was not kept, and why.
        case skipped(ClipboardSelection, reason: SkipReason)
        /// The selection was emptied (its owner went away), and the keeper now offers its last snapshot.
        case restored(ClipboardSelection, offered: [String])
        /// The last snapshot's expiry passed: it was dropped, and the selection cleared if the keeper offered it.
        case expired(ClipboardSelection)
        /// The keeper became the X11 desktop's clipboard manager: applications that store their clipboard at exit
        /// hand it to the keeper.
        case managingClipboard
        /// A new owner offered `count` names beyond ``ClipboardLimits/maximumOfferedTypes``: they are ignored (not
        /// snapshot). Reported once per owner, before its snapshot's event.
        case ignoredTypes(ClipboardSelection, count: Int)

        /// One line: `kept clipboard: 3 names, 120 bytes (text/plain …)`, `skipped clipboard: concealed`, ….
        public var description: String {
            switch self {
            case .kept(let selection, let offered, let byteCount):
                "kept \(selection.rawValue): \(offered.count) names, \(byteCount) bytes ("
                    + offered.joined(separator: " ") + ")"
            case .skipped(let selection, let reason):
                "skipped \(selection.rawValue): \(reason)"
            case .restored(let selection, let offered):
                "restored \(selection.rawValue): " + offered.joined(separator: " ")
            case .expired(let selection):
                "expired \(selection.rawValue)"
            case .managingClipboard:
                "clipboard manager: CLIPBOARD_MANAGER is the keeper's"
            case .ignoredTypes(let selection, let count):
                "ignored \(selection.rawValue): \(count) offered names beyond the first "
                    + "\(ClipboardLimits.maximumOfferedTypes) (ClipboardLimits.maximumOfferedTypes)"
            }
        }
    }

    /// Why an owner's content was not kept.
    public enum SkipReason: Sendable, Hashable, CustomStringConvertible {
        /// It was offered with a password manager's hint (`x-kde-passwordManagerHint`, a concealed type).
        case concealed
        /// It was marked transient (`org.nspasteboard.TransientType`).
        case transient
        /// Its expiry (`application/x-transferkit-expires`) had passed when it was read.
        case expired
        /// It offered only names that no uniform type stands for, so there was nothing to read.
        case nothingReadable
        /// Reading or spooling it failed (the owner went away during the snapshot, the spool folder is full, …).
        case failed(String)
        /// Its representations passed ``Options/maximumSnapshotSize``.
        case tooLarge
        /// Its snapshot took longer than ``Options/snapshotTimeout``.
        case timedOut
        /// Another owner took the selection while it was being snapshot; the new owner is snapshot instead.
        case preempted

        /// `concealed`, `transient`, `expired`, `nothing readable`, `too large`, `timed out`, `pre-empted by a new
        /// owner`, or `failed: <message>`.
        public var description: String {
            switch self {
            case .concealed: "concealed"
            case .transient: "transient"
            case .expired: "expired"
            case .nothingReadable: "nothing readable"
            case .tooLarge: "too large"
            case .timedOut: "timed out"
            case .preempted: "pre-empted by a new owner"
            case .failed(let message): "failed: \(message)"
            }
        }
    }

    /// The clipboard the keeper watches and serves through.
    public let clipboard: Clipboard
    /// The keeper's settings.
    public let options: Options

    /// A keeper of `clipboard`'s selections, as `options` say.
    ///
    /// - Parameters:
    ///   - clipboard: The connection to watch and serve through.
    ///   - options: The selections, the memory cap, the history and the spool folder.
    public init(clipboard: Clipboard, options: Options = Options()) {
        self.clipboard = clipboard
        self.options = options
    }

    /// The spool folder when none is given: `$XDG_RUNTIME_DIR/transferkit/keeper` (the user's private runtime
    /// folder, which the session removes at logout; usually in memory, `tmpfs`), or, without `XDG_RUNTIME_DIR`,
    /// `transferkit-keeper-<uid>` in `TMPDIR` (else `/tmp`).
    ///
    /// - Parameter environment: The variables to read.
    /// - Returns: The folder.
    public static func defaultSpoolFolder(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return URL(fileURLWithPath: runtime, isDirectory: true).appendingPathComponent(
                "transferkit/keeper", isDirectory: true)
        }
        let temporary = environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        return URL(fileURLWithPath: temporary, isDirectory: true).appendingPathComponent(
            "transferkit-keeper-\(Syscall.userID)", isDirectory: true)
    }

    /// Keeps the selections until the task is cancelled (or the connection fails).
    ///
    /// What the selections offer when it starts is kept at once; then each change is handled as it comes. When it
    /// returns, the keeper's ownerships are released and, without a history, its spool files are gone.
    ///
    /// - Parameter onEvent: Told each snapshot kept or skipped, each restore and each expiry, on the keeper's tasks.
    /// - Throws: ``ClipboardError``: `spoolUnavailable` when the spool folder cannot be made, the connection's errors
    ///   when watching fails (`protocolUnavailable` on an X server without XFIXES).
    public func run(onEvent: @escaping @Sendable (Event) -> Void = { _ in }) async throws {
        try Self.makeFolder(options.spoolFolder)
        // A restore offers every MIME name the system database gives a type, which needs the database: imported now,
        // so that the first restore does not wait for it while the next owner may already be taking the selection.
        clipboard.catalog.importSystemMIMEDatabaseIfNeeded()
        var selections: [ClipboardSelection] = []
        for selection in options.selections where !selections.contains(selection) {
            selections.append(selection)
            if options.historyLength > 0 { try Self.makeFolder(options.historyFolder(of: selection)) }
        }
        let budget = MemoryBudget(capacity: options.memoryCap)
        var manager: (any ClipboardOwnership)?
        try await withThrowingTaskGroup(of: Void.self) { group in
            for selection in selections {
                let (inputs, continuation) = AsyncStream<SelectionKeeper.Input>.makeStream()
                if selection == .clipboard {
                    manager = await becomeClipboardManager(continuation)
                    if manager != nil { onEvent(.managingClipboard) }
                }
                let changes = clipboard.changes(of: selection)
                group.addTask {
                    do {
                        for try await change in changes {
                            if change.omittedTypeCount > 0 {
                                onEvent(.ignoredTypes(selection, count: change.omittedTypeCount))
                            }
                            continuation.yield(.change(change.offeredTypes.map(\.name)))
                        }
                    } catch {
                        continuation.yield(.failed(error))
                    }
                    continuation.finish()
                }
                group.addTask {
                    try await SelectionKeeper(keeper: self, selection: selection, budget: budget, onEvent: onEvent)
                        .run(inputs)
                }
            }
            defer { group.cancelAll() }
            try await group.waitForAll()
        }
        await manager?.release()
    }

    /// On X11, becomes the desktop's clipboard manager (`CLIPBOARD_MANAGER`): an application that stores its
    /// clipboard at exit (GTK's `gtk_clipboard_store`) is answered once the keeper holds a complete snapshot of it.
    /// Nothing when another manager runs, or on Wayland, which has no such protocol (the keeper snapshots each copy
    /// there, as it does on X11 too).
    private func becomeClipboardManager(
        _ inputs: AsyncStream<SelectionKeeper.Input>.Continuation
    ) async -> (any ClipboardOwnership)? {
        try? await clipboard.becomeClipboardManager { _ in
            // The reply answers false when the keeper drops it unanswered (or has stopped taking inputs).
            let answered = Latch<Bool>()
            inputs.yield(.save(SelectionKeeper.SaveReply(answered)))
            return await answered.wait() ?? false
        }
    }

    /// Creates `folder` and its parents (the new ones mode 0700).
    static func makeFolder(_ folder: URL) throws {
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ClipboardError(
                code: .spoolUnavailable,
                message: "Cannot create the keeper's folder \(folder.path): \(FoundationErrorDescription.of(error)). "
                    + "Give a spool folder that can be written.", cause: error, source: folder.path)
        }
        try checkFolder(folder)
    }

    /// Checks that `folder` is a folder (not a link) of this process's user that not every user may write: the
    /// keeper's rule for its spool and history folders, which every reader of them applies too
    /// (``history(of:in:)``), since without `XDG_RUNTIME_DIR` they sit at a predictable path under `/tmp`.
    ///
    /// - Throws: ``ClipboardError`` with `spoolUnavailable` when it is not.
    static func checkFolder(_ folder: URL) throws {
        // Not followed through a link: the default folder's name under /tmp is predictable, so another user could
        // have made it (or a link named so) first and then read or replace what the keeper keeps.
        let status = Syscall.linkStatus(atPath: folder.path)
        guard let status, status.isDirectory else {
            throw ClipboardError(
                code: .spoolUnavailable,
                message: "The keeper's folder \(folder.path) is not a folder. Give a spool folder that can be written.",
                source: folder.path)
        }
        let mode = Int(status.mode & 0o7777)
        guard status.owner == Syscall.userID, mode & 0o002 == 0 else {
            throw ClipboardError(
                code: .spoolUnavailable,
                message: "The keeper's folder \(folder.path) belongs to another user or every user may write in "
                    + "it (mode \(String(mode, radix: 8))); the keeper keeps clipboards only in a folder of its own "
                    + "user that not every user can write. Remove it, or give another spool folder.",
                source: folder.path)
        }
    }
}

/// The bytes of snapshots held in memory, shared by the selections of one keeper.
final class MemoryBudget: Sendable {
    private let used = SanitizedMutex(0)
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// Reserves `count` bytes if they fit.
    func reserve(_ count: Int) -> Bool {
        used.withLock { used in
            guard count <= capacity - used else { return false }
            used += count
            return true
        }
    }

    /// Gives back bytes reserved earlier.
    func release(_ count: Int) {
        used.withLock { $0 = max(0, $0 - count) }
    }
}
