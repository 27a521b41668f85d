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

/// `transferkit serve --stdio`: the far side of `paste --from ssh://host`. It serves this machine's clipboard (or the
/// named files) as a session on its standard input and output, each type read only when the near side loads it.
struct ServeCommand: Command {
    /// The catalogue for type inference and mapping.
    var catalog: TypeCatalog

    /// Creates the command.
    init(catalog: TypeCatalog = .shared) {
        self.catalog = catalog
    }

    /// `"serve"`.
    var name: String { "serve" }
    /// One line of help.
    var abstract: String { "Serve the clipboard or files as a session on standard input and output (for ssh)." }
    /// Rules and examples.
    var discussion: String {
        """
        The far side of `transferkit paste --from ssh://HOST`, which runs `ssh HOST transferkit serve --stdio`: you
        seldom run it yourself. It speaks the session protocol (Schemas/transfer-session.md, section 8) on its
        standard input and output, and exits when the other side closes them.

        Without FILE it serves the clipboard (--primary: the primary selection) as the display server holds it when
        the near side connects: the near side sees every type at once, and each is read from the clipboard's owner
        only when the near side loads it. When another copy is made here, the session ends (a load under way
        fails): what it offered is gone, and the new copy (a password, say) is not served in its place (a display
        server that cannot report changes, X11 without XFIXES, leaves it serving until the near side goes). With FILE… it serves those files (or one archive's items) instead, and
        needs no display server; `transferkit drag ssh://HOST/PATH` runs it so. Nothing else on the machine is
        reachable: the near side can load only what this command offers, a path with a `..` component is refused,
        and so is one whose last component is a symbolic link.

        --receive is the far side of `transferkit copy --to ssh://HOST`: instead of offering, it takes the items the
        near side offers and puts them on this machine's clipboard (--primary, --concealed, --transient,
        --paste-once, --loops and --expire as for copy), loading each type from the near side when an application
        here pastes it. It serves until another application takes the clipboard, or the near side goes (then it
        gives the clipboard up: nothing could be pasted from it).

        --files serves the files on the clipboard (its file URLs, as a file manager or `transferkit copy` put them
        there) instead of its types: the far side of `transferkit paste --from ssh://HOST --into DIR`. Files that were
        cut (copy --cut, a file manager's Cut) may be moved: each is removed here only once the move is decided
        `committed` in this user's decision record ($XDG_STATE_HOME/transferkit/session-decisions, by default
        ~/.local/state/…), which the near side writes with --decide before it commits; a reserved file is marked in
        $XDG_STATE_HOME/transferkit/remote-moves first (and the file locked while this serve holds it, so that two serves
        never reserve one file), so that a serve killed at any step is settled by the next serve --files, --decide or
        --settle here. A file is removed only if it is still the file reserved (not one made anew under its name).
        Only regular files are served: a folder or a link on the clipboard fails it (exit 1).

        --decide SESSION --outcome committed|aborted [--items ID,…] records a move's outcome unless one is recorded
        already, and prints the session's outcome (the first decision wins); --settle settles the moves of serves
        that are gone (removing the files of committed ones) and prints each file removed. Both end at once; `paste
        --into` runs them through ssh. For fault tests, TRANSFERKIT_PAUSE_AT=STEP stops either side (SIGSTOP) when its
        move reaches STEP (offered, reserved, commitReceived, removed here; reservationReceived, stored, decided,
        commitSent in paste --into), so that a test can kill it at exactly that step.

        --stdio is required to serve: standard input and output are the only transport (ssh, `docker exec -i`, `kubectl exec
        -i` carry them); TransferKit never listens on a network port.

        Run by another program, for example: ssh build-server transferkit serve --stdio, or docker exec -i box
        transferkit serve --stdio.

        EXAMPLES:
          transferkit serve --stdio
          transferkit serve --stdio --primary
          transferkit serve --stdio report.pdf
          transferkit serve --stdio --receive --concealed
          transferkit serve --stdio --files
        """
    }

    /// The accepted options.
    var signature: CommandSignature {
        CommandSignature(
            options: [
                .init(names: ["--stdio"], help: "Serve on standard input and output (required)."),
                .init(
                    names: ["--primary"],
                    help: "Serve the primary selection (middle-click paste) instead of the clipboard."),
                .init(
                    names: ["--backend"], valueName: "x11|wayland|wayland-focus",
                    help: "The display protocol, as for paste."),
                .init(
                    names: ["--receive"], help: "Put the near side's items on this clipboard (copy --to's far side)."),
                .init(names: ["--concealed"], help: "With --receive: mark the content secret."),
                .init(names: ["--transient"], help: "With --receive: mark the content short-lived."),
                .init(names: ["--paste-once"], help: "With --receive: serve one paste, then clear the clipboard."),
                .init(names: ["--loops"], valueName: "N", help: "With --receive: serve N pastes, then clear it."),
                .init(names: ["--expire"], valueName: "DURATION", help: "With --receive: clear it after DURATION."),
                .init(
                    names: ["--mirrored"],
                    help: "With --receive: mark the content a mirror (sync does not send it back)."),
                .init(
                    names: ["--files"], help: "Serve the clipboard's files (paste --into's far side); cut ones move."),
                .init(
                    names: ["--decide"], valueName: "SESSION",
                    help: "Record a move's outcome (with --outcome) unless recorded, and print the outcome."),
                .init(names: ["--outcome"], valueName: "committed|aborted", help: "With --decide: the outcome."),
                .init(names: ["--items"], valueName: "ID,…", help: "With --decide: the moved items."),
                .init(
                    names: ["--settle"], help: "Settle the moves of serves that are gone, and print what it removed."),
                DeclarationsOption.option,
            ],
            positionals: .init(name: "FILE", help: "Files, or one archive, to serve instead of the clipboard.")
        )
    }

    /// Serves until the near side disconnects.
    func run(_ arguments: ParsedArguments, in context: CommandContext) async throws -> ExitCode {
        try DeclarationsOption.load(arguments, into: catalog)
        if let session = arguments.value("--decide") {
            return try decide(session, arguments, context: context)
        }
        for name in ["--outcome", "--items"] where arguments.value(name) != nil {
            throw UsageError("\(name) goes with --decide")
        }
        if arguments.flag("--settle") {
            return try settle(context: context)
        }
        guard arguments.flag("--stdio") else {
            throw UsageError("serve needs --stdio: it serves on standard input and output, which ssh carries")
        }
        let paths = arguments.positionals
        if arguments.flag("--files") {
            guard paths.isEmpty, !arguments.flag("--receive") else {
                throw UsageError("--files serves the clipboard's files; give no FILE and no --receive")
            }
            return try await serveFiles(arguments, context: context)
        }
        if arguments.flag("--receive") {
            guard paths.isEmpty else { throw UsageError("--receive takes the near side's items; give no FILE") }
            return try await receive(arguments)
        }
        for name in ["--concealed", "--transient", "--paste-once", "--loops", "--expire", "--mirrored"]
        where arguments.flag(name) || arguments.value(name) != nil {
            throw UsageError("\(name) goes with --receive")
        }
        if !paths.isEmpty {
            if arguments.flag("--primary") || arguments.value("--backend") != nil {
                throw UsageError("--primary and --backend choose a clipboard; FILE… serves files instead")
            }
            if paths.contains("-") {
                throw UsageError("standard input carries the session; it cannot be served as a file (-)")
            }
            // Exactly the files named: none above them, none that a link points at.
            for path in paths {
                if path.split(separator: "/").contains("..") {
                    throw UsageError("\(path) goes up a folder (..): serve offers the files named, none above them")
                }
                if Syscall.linkStatus(atPath: path)?.isSymbolicLink == true {
                    throw UsageError("\(path) is a symbolic link: serve follows none (name the file itself)")
                }
            }
            let inputs = try paths.map { try InputFile(path: $0) }
            // The far machine's paths mean nothing on the near one: the files' bytes, not their URLs.
            let items = try CommandLineItems.make(
                inputs, paths: paths, type: nil, catalog: catalog, offersFileURLs: false)
            try await serve(items.providers)
            withExtendedLifetime((inputs, items.spools)) {}
            return .success
        }
        let clipboard = try await ClipboardCommandOptions.open(arguments, catalog: catalog)
        defer { clipboard.close() }
        let selection = ClipboardCommandOptions.selection(arguments)
        // Each load reads from whoever owns the selection then: once another copy is made here, this content is gone
        // and the next owner's (a password, say) must not be served under it. The session ends at the first change.
        let changes = clipboard.changes(of: selection)
        // Read when the near side connects: the types the owner offers now, each loaded from it when asked.
        // A TransferKit owner's files are read through its session offer, from a passed descriptor.
        let providers = try await clipboard.read(
            from: selection, wrappingStreams: { $0 },
            direct: ClipboardSessionOffer.directLoads(
                from: clipboard, selection: selection, timeout: ClipboardCommandOptions.timeout))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await serve(providers.filter { !$0.registeredTypes.isEmpty }) }
            group.addTask {
                do {
                    for try await _ in changes { return }
                } catch {
                    // A display server that cannot report changes (X11 without XFIXES): serve on, unguarded, until
                    // the near side goes.
                    _ = await Latch<Void>().wait()
                }
            }
            try await group.next()
            group.cancelAll()
        }
        return .success
    }

    /// `serve --stdio --receive`: puts the near side's items on this machine's clipboard, and serves them from there
    /// (each type loaded over the link when pasted) until the clipboard is taken or the near side goes.
    private func receive(_ arguments: ParsedArguments) async throws -> ExitCode {
        var options = try CopyCommand.writeOptions(arguments)
        options.isMirrored = arguments.flag("--mirrored")
        let remote = try await RemoteDragSession.connect(
            input: 0, output: 1, timeout: ClipboardCommandOptions.timeout)
        defer { remote.close() }
        let clipboard = try await ClipboardCommandOptions.open(arguments, catalog: catalog)
        defer { clipboard.close() }
        let handle = try await clipboard.write(
            remote.items.map(\.provider), to: ClipboardCommandOptions.selection(arguments), options: options)
        // A copy drop tells the near side that the clipboard here is taken (its reservation); the commit, when the
        // clipboard is lost, ends the session.
        _ = try await remote.drop(DropProposal(operation: .copy)) { _, _ in
            // Until the clipboard here is taken, or the near side goes (nothing could be pasted from it then).
            await withTaskGroup(of: Void.self) { group in
                group.addTask { _ = try? await handle.ended() }
                group.addTask { await remote.disconnected() }
                await group.next()
                group.cancelAll()
            }
            await handle.release()
        }
        return .success
    }

    /// Serves `providers`, one item each, on standard input and output until the near side disconnects.
    private func serve(_ providers: [TransferProvider]) async throws {
        let items = providers.enumerated().map { index, provider in
            DragItem(id: TransferItemID(String(index)), provider: provider)
        }
        // No source: nothing here can be moved away (a move would need someone to remove the originals).
        let session = DragSession(items: items, source: nil, allowsMoveOperation: false)
        try await DragSessionPublication.serve(session, timeout: ClipboardCommandOptions.timeout)
    }

    /// `serve --decide SESSION --outcome O`: records the outcome unless one is recorded, settles what gone serves
    /// left, and prints the session's outcome.
    private func decide(_ session: String, _ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        guard let value = arguments.value("--outcome"), let outcome = SessionDecisionRecord.Outcome(rawValue: value)
        else { throw UsageError("--decide needs --outcome committed or --outcome aborted") }
        let items = (arguments.value("--items") ?? "").split(separator: ",").map { TransferItemID(String($0)) }
        let moves = try OutgoingMoves.standard()
        let decision = try moves.record.decide(outcome, for: DragSession.ID(rawValue: session), items: items)
        reportProblems(moves.settle().problems, context: context)
        try context.standardOutput.writeLine(decision.outcome.rawValue)
        return .success
    }

    /// `serve --settle`: settles the moves of serves that are gone, and prints each file it removed.
    private func settle(context: CommandContext) throws -> ExitCode {
        let (removed, problems) = try OutgoingMoves.standard().settle()
        for path in removed { try context.standardOutput.writeLine(path) }
        reportProblems(problems, context: context)
        return problems.isEmpty ? .success : .failure
    }

    private func reportProblems(_ problems: [String], context: CommandContext) {
        for problem in problems {
            try? context.standardError.writeLine("transferkit serve: a move is not settled yet: \(problem)")
        }
    }

    /// `serve --stdio --files`: serves the clipboard's files, each item one file's bytes; a cut's files may move.
    private func serveFiles(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        if arguments.flag("--primary") { throw UsageError("--files serves the clipboard's files; leave --primary out") }
        let moves = try OutgoingMoves.standard()
        reportProblems(moves.settle().problems, context: context)
        let clipboard = try await ClipboardCommandOptions.open(arguments, catalog: catalog)
        defer { clipboard.close() }
        let providers = try await clipboard.read(from: .clipboard)
        var urls: [URL] = []
        var isCut = false
        for provider in providers
        where provider.registeredTypes.contains(where: { catalog.conforms($0, to: .fileURL) }) {
            urls += (try? await provider.loadObject(ofClass: [URL].self)) ?? []
            isCut = isCut || provider.isCut
        }
        let paths = urls.filter { $0.isFileURL && [nil, "", "localhost"].contains($0.host) }.map(\.path)
        guard !paths.isEmpty else {
            throw CommandFailure(code: .empty, message: "the clipboard holds no files")
        }
        for path in paths where Syscall.linkStatus(atPath: path)?.isRegularFile != true {
            throw CommandFailure(
                code: .notFound,
                message: "\(path) is not a regular file (gone, a folder, a link or a device): only files are served")
        }
        let inputs = try paths.map { try InputFile(path: $0) }
        let made = try CommandLineItems.make(inputs, paths: paths, type: nil, catalog: catalog, offersFileURLs: false)
        let items = made.providers.enumerated().map { index, provider in
            DragItem(id: TransferItemID(String(index)), provider: provider)
        }
        let files = CutFiles(
            Dictionary(
                uniqueKeysWithValues: paths.enumerated().map { (TransferItemID(String($0.offset)), $0.element) }),
            moves: moves)
        let session = DragSession(
            items: items, source: isCut ? files : nil, allowsMoveOperation: isCut,
            allowsMoveToOtherApplications: isCut)
        try await DragSessionPublication.serve(
            session, decisions: isCut ? moves.record : nil, timeout: ClipboardCommandOptions.timeout,
            observer: MoveStepPause.observer)
        // The serve returns when the connection ends; a move it cut short settles (asks the record, removes or keeps)
        // just after. Wait for that, a while at most: a mark left is settled by the next serve here anyway.
        await files.settled(until: .after(.seconds(10)))
        withExtendedLifetime((inputs, made.spools)) {}
        reportProblems(files.failures, context: context)
        return files.failures.isEmpty ? .success : .failure
    }
}
