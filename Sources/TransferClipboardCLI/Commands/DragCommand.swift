import TransferClipboard
import TransferKit
import TransferKitCLI
import TransferKitPlatform
import TransferSessions
import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `transferkit drag`: opens a small window that lists files (or an archive's items), from which the user drags them
/// onto another application, as dragon does.
struct DragCommand: Command {
    /// The catalogue for type inference and mapping.
    var catalog: TypeCatalog

    /// Creates the command.
    init(catalog: TypeCatalog = .shared) {
        self.catalog = catalog
    }

    /// `"drag"`.
    var name: String { "drag" }
    /// One line of help.
    var abstract: String { "Open a window listing files to drag onto another application." }
    /// Rules and examples.
    var discussion: String {
        """
        The window, titled 'transferkit drag', lists the items: each file (offered as its type, from its filename
        extension, and as its URL, text/uri-list, and the document portal's key for sandboxed applications, as `copy`
        offers them), or every item of one archive (a .transferkit
        file), every representation as it was saved. Press the first button on the window and drag: the drag
        carries every item. Nothing is read until the target asks; then the bytes stream from the file.

        After each drag the tool prints one line: 'dropped ACTION TARGET' (ACTION is copy, move or link; TARGET
        the window that took it, or '-'), or 'not dropped: REASON' (the window under the pointer refused it, Escape
        cancelled it, or the target failed). With --and-exit it exits after the first drop: 0 when the target took
        it, 1 when it was not dropped. Without it the window stays for more drags until it is closed (or the tool
        is interrupted), and the status is 0 when at least one drag was dropped, else 1.

        --move lets the target move the files: a file is removed only after a drop that performed a move (the
        target said it finished and moved it) and read the data of every dragged file (one of its types, or its
        URL, to the end), never after a copy, a refusal or a cancel; a target that answers 'move' without reading
        a file gets a copy instead (the tool prints 'dropped copy', and why on standard error). A moved file leaves the
        list, and once every file has moved the tool exits. A moved file that cannot be removed (a read-only file
        system, an immutable file) stays on the list: the tool prints 'transferkit drag: cannot remove FILE ...'
        with the system's reason on standard error, and exits 2 at the end. An archive's items are no files, so
        --move refuses an archive (exit 2).

        Another machine's files: ssh://[user@]HOST[:PORT]/ABSOLUTE/PATH, or ssh://[user@]HOST:PATH relative to the
        home folder there (all of one machine), are offered through `ssh HOST transferkit serve --stdio -- PATH…`
        (TRANSFERKIT_SSH and TRANSFERKIT_REMOTE_PROGRAM as for paste --from): each as the types the far side gives it,
        fetched over ssh only when a drop takes one. A target that takes files (text/uri-list) gets a copy that is
        made then, in a new folder of the temporary directory (mode 0700), named as the far file; the folder stays
        after the command, since a file manager copies a dropped file after the drop. A drag of one far file also
        promises it (X11's direct save, XDS): a target that asks for it in a folder of its own has the far bytes
        written there, and nothing is spooled. The far side serves exactly the
        named files: a path with a '..' component, or whose last component is a symbolic link, is refused. Such
        files are dragged as copies (--move does not apply).

        EXAMPLES:
          transferkit drag card.json notes.txt
          transferkit drag --and-exit cover.png
          transferkit drag --move --and-exit report.pdf
          transferkit drag clip.transferkit
          transferkit drag ssh://build-server/var/log/build.log
        """
    }

    /// The accepted options.
    var signature: CommandSignature {
        CommandSignature(
            options: [
                .init(names: ["--move"], help: "Let the target move the files: remove each after a performed move."),
                .init(names: ["--and-exit"], help: "Exit after the first drop (0 taken, 1 not dropped)."),
                DesktopCommandOptions.backend,
                DeclarationsOption.option,
            ],
            positionals: .init(
                name: "FILE", help: "Files, one archive, or another machine's files (ssh://HOST/PATH).", minimum: 1)
        )
    }

    /// Drags.
    func run(_ arguments: ParsedArguments, in context: CommandContext) async throws -> ExitCode {
        try DeclarationsOption.load(arguments, into: catalog)
        let paths = arguments.positionals
        if paths.contains("-") {
            throw UsageError("standard input (-) cannot be dragged; give files")
        }
        let move = arguments.flag("--move")
        let choice = try DesktopCommandOptions.backendChoice(arguments)
        if paths.contains(where: { $0.hasPrefix("ssh://") }) {
            guard paths.allSatisfy({ $0.hasPrefix("ssh://") }) else {
                throw UsageError("drag takes local files or another machine's (ssh://…), not both at once")
            }
            if move { throw UsageError("--move removes local files; another machine's files are dragged as copies") }
            return try await dragRemote(
                paths, andExit: arguments.flag("--and-exit"), choice: choice, context: context)
        }
        let inputs = try paths.map { try InputFile(path: $0) }
        let items = try CommandLineItems.make(inputs, paths: paths, type: nil, catalog: catalog)
        if move, items.isArchive {
            throw UsageError(
                "--move removes the dragged files, and an archive's items are no files: drag them without --move")
        }
        let entries = items.providers.enumerated().map { index, provider in
            DraggedEntry(
                id: TransferItemID(String(index)), provider: provider,
                path: items.isArchive ? nil : URL(fileURLWithPath: paths[index]).standardizedFileURL.path,
                label: Self.label(provider, index: index))
        }
        let outcome = try await drag(
            entries, move: move, andExit: arguments.flag("--and-exit"), choice: choice, context: context)
        withExtendedLifetime((inputs, items.spools)) {}
        return outcome
    }

    /// The line the window shows for an item: its name (the file's, or the one its archive suggests; `item N`
    /// else) and its best type.
    static func label(_ provider: TransferProvider, index: Int) -> String {
        let name = provider.suggestedName ?? "item \(index + 1)"
        guard let type = provider.registeredTypes.first else { return name }
        return "\(name)  (\(type.identifier))"
    }
}

/// One item of `drag`'s window: what it offers, and the file a performed move removes.
struct DraggedEntry: Sendable {
    /// The item's identity in the drag.
    var id: TransferItemID
    /// Its representations.
    var provider: TransferProvider
    /// The file it stands for, which a performed move removes; `nil` for an archive's item.
    var path: String?
    /// Its line in the window.
    var label: String
}

/// The source of a `drag --move`: it removes a dragged file when the drop's target has moved it, and nothing else.
final class MovedFiles: DragSource {
    private let paths: [TransferItemID: String]
    private let removedItems = SanitizedMutex<[TransferItemID]>([])
    private let failedRemovals = SanitizedMutex<[SystemError]>([])

    /// The source of `entries`' files.
    init(_ entries: [DraggedEntry]) {
        paths = Dictionary(entries.compactMap { entry in entry.path.map { (entry.id, $0) } }) { first, _ in first }
    }

    /// The items removed so far.
    var removed: [TransferItemID] { removedItems.withLock { $0 } }

    /// The files the target moved that could not be removed, taken out (each is returned once).
    func takeFailures() -> [SystemError] {
        failedRemovals.withLock { failures in
            defer { failures = [] }
            return failures
        }
    }

    /// Every item whose file the source holds.
    func reserve(_ items: [TransferItemID], for session: DragSession.ID) async -> [TransferItemID] {
        items.filter { paths[$0] != nil }
    }

    /// Removes the files: the target performed the move. A file that cannot be removed is not counted as removed;
    /// its error waits for ``takeFailures()``.
    func remove(_ items: [TransferItemID], for session: DragSession.ID) async {
        for item in items {
            guard let path = paths[item] else { continue }
            do {
                try Syscall.removeFile(path)
                removedItems.withLock { $0.append(item) }
            } catch {
                failedRemovals.withLock { $0.append(error) }
            }
        }
    }

    /// Keeps the files: the move did not happen.
    func release(_ items: [TransferItemID], for session: DragSession.ID) async {}
}
