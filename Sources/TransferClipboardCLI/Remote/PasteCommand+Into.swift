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
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension PasteCommand {
    /// `paste --from ssh://HOST --into DIR`: the files on the far clipboard, written into `DIR`; a cut's files are
    /// moved, exactly once (``IncomingMoves``). With `--settle`, only the moves into `DIR` that an earlier run left
    /// undecided are settled.
    /// - Throws: ``UsageError`` for options that do not apply; ``CommandFailure`` (`empty`) when the far clipboard
    ///   holds no files; ``TransferSessionError`` when the far side cannot be reached or the move fails
    ///   (`commitFailed`, which says whether anything is left to settle).
    func pasteFiles(
        from location: RemoteLocation, into folder: String, timeout: Duration, _ arguments: ParsedArguments,
        context: CommandContext
    ) async throws -> ExitCode {
        for name in ["--type", "--list", "--archive", "--output", "--primary", "--format", "--json"]
        where arguments.flag(name) || arguments.value(name) != nil {
            throw UsageError("\(name) does not go with --into (the far clipboard's files are written into DIR)")
        }
        guard Syscall.linkStatus(atPath: folder)?.isDirectory == true else {
            throw UsageError("--into needs an existing folder (got '\(folder)')")
        }
        let incoming = IncomingMoves(folder: folder)
        // A move an earlier run left undecided (killed, or its link cut at the wrong moment) goes first.
        var problems = await incoming.settle(timeout: timeout, context: context)
        if arguments.flag("--settle") {
            do {
                // The far side's own marks too (its process killed after the decision, before its removal).
                _ = try await location.run(["serve", "--settle"], timeout: timeout)
            } catch {
                problems += 1
                try? context.standardError.writeLine("transferkit paste: \(location) did not settle: \(error)")
            }
            return problems == 0 ? .success : .failure
        }
        let command = try location.command(
            running: ["serve", "--stdio", "--files"], environment: ProcessInfo.processInfo.environment)
        let remote = try await RemoteDragSession.connect(
            runningCommand: command, timeout: timeout, observer: MoveStepPause.observer)
        defer { remote.close() }
        guard !remote.items.isEmpty else {
            throw CommandFailure(code: .empty, message: "the clipboard of \(location) holds no files")
        }
        guard remote.allowsMoveOperation, remote.allowsMoveToOtherApplications else {
            // A copy: each file's bytes, straight into its place.
            for item in remote.items {
                let written = try await incoming.write(item, to: .newFile(inFolder: folder), context: context)
                try context.standardOutput.writeLine("copied\t\(written.path)\t\(written.size)")
            }
            return .success
        }
        return try await move(remote, from: location, into: incoming, timeout: timeout, context: context)
    }

    /// Moves the far cut's files into `incoming`'s folder: stores them pending, has the far record decide
    /// `committed`, commits, and only then puts them in place. See ``IncomingMoves``.
    private func move(
        _ remote: RemoteDragSession, from location: RemoteLocation, into incoming: IncomingMoves, timeout: Duration,
        context: CommandContext
    ) async throws -> ExitCode {
        var outcome: SessionDecisionRecord.Outcome?
        var asked = false
        var pending: IncomingMoves.Move?
        var failure: (any Error)?
        do {
            _ = try await remote.drop(DropProposal(operation: .move)) { session, operation in
                guard operation == .move else {
                    throw TransferSessionError(code: .commitFailed, message: "The far side did not allow the move.")
                }
                // The far side's session names a folder here: only a plain name may.
                guard SessionDecisionRecord.isFileName(remote.id) else {
                    throw TransferSessionError(
                        code: .protocolViolation, message: "The far side's session identity is not a plain name.",
                        source: remote.id.rawValue)
                }
                let move = try incoming.begin(session: remote.id, from: location, items: session.items)
                pending = move
                for (index, item) in session.items.enumerated() {
                    _ = try await incoming.write(item, to: .pendingFile(move.folder + "/\(index)"), context: context)
                }
                let folder = try Syscall.openForReading(move.folder)
                defer { Syscall.close(folder) }
                try Syscall.synchronize(folder)
                // Files are put in place by `link`: a folder whose file system has none (vfat, some network ones)
                // must fail the move now, before the far side is told to remove anything.
                try incoming.checkLinks(move)
                MoveStepPause.reached("stored")
                asked = true
                let answer = try await location.run(
                    [
                        "serve", "--decide", remote.id.rawValue, "--outcome", "committed", "--items",
                        session.items.map(\.id.rawValue).joined(separator: ","),
                    ], timeout: timeout)
                outcome = IncomingMoves.outcome(answer)
                guard outcome == .committed else {
                    throw TransferSessionError(
                        code: .commitFailed, message: "The far side had given the move up before it was decided.")
                }
                MoveStepPause.reached("decided")
            }
        } catch {
            failure = error
        }
        guard let move = pending else { throw failure ?? CommandFailure(code: .empty, message: "nothing moved") }
        defer { incoming.unlock(move) }
        switch outcome {
        case .committed?:
            for line in try incoming.finish(move) {
                try context.standardOutput.writeLine("moved\t\(line.path)\t\(line.size)")
            }
            if let failure {
                // The files are here; the far side removes its originals when it reads its record again.
                try? context.standardError.writeLine(
                    "transferkit paste: the files are moved; \(location) removes its originals the next time "
                        + "`transferkit serve --files`, `--decide` or `--settle` runs there (\(failure))")
            }
            return .success
        case nil where asked:
            throw TransferSessionError(
                code: .commitFailed,
                message: "Whether the move happened is not known here: \(failure.map { "\($0)" } ?? "no answer"). "
                    + "The files wait in \(move.folder); `transferkit paste --from \(location) --into "
                    + "\(incoming.folder) --settle` puts them in place or removes them, as \(location)'s record says.")
        default:
            incoming.discard(move)
            throw failure ?? TransferSessionError(code: .commitFailed, message: "The move was given up.")
        }
    }
}

/// The destination's half of a cut moved from another machine: files stored *pending* in `DIR/.transferkit-moves/
/// SESSION/` (a hidden folder inside the destination folder, so that putting a file in place is a `link` on the same
/// file system), with `move.json` naming the far machine and each item's name; the pending files are `0`, `1`, ….
///
/// The decision record is the far machine's (the source's, ``OutgoingMoves``): once the files are stored and flushed,
/// `serve --decide SESSION --outcome committed` records the move there, and only then is the commit sent. A run that
/// does not learn the outcome (killed, or its link cut at that moment) leaves the folder; the next `paste --into DIR`
/// asks the far record with `--outcome aborted` (the first decision wins, so a move nobody decided is given up) and
/// puts the files in place or removes them. A file is put in place by a `link` to the first free name, then its
/// pending name is removed; a pending file with two links was placed already, so a run killed in between does not
/// place it twice.
struct IncomingMoves {
    /// The destination folder.
    let folder: String

    /// The folder of the pending moves.
    var movesFolder: String { folder + "/.transferkit-moves" }

    /// One pending move, as `move.json` holds it.
    struct Record: Codable {
        /// The session's identity.
        var session: String
        /// The far machine, `ssh://…`.
        var location: String
        /// The items' file names in the destination folder (made safe), in order; item `i`'s pending file is `i`.
        var names: [String]
    }

    /// A move under way: its folder and record.
    struct Move {
        /// `DIR/.transferkit-moves/SESSION`.
        var folder: String
        /// What `move.json` holds.
        var record: Record
        /// The lock this process holds on the move (`SESSION.lock` beside its folder), so that another run settling
        /// the folder leaves it alone; -1 for none.
        var lock: Int32 = -1
    }

    /// The session's outcome in the far side's answer to `serve --decide`: its last line (a login that prints
    /// something first does not hide it); `nil` when that is no outcome.
    static func outcome(_ answer: String) -> SessionDecisionRecord.Outcome? {
        answer.split(whereSeparator: \.isNewline).last.flatMap {
            SessionDecisionRecord.Outcome(rawValue: String($0.filter { !$0.isWhitespace }))
        }
    }

    /// Takes `session`'s lock without waiting; `nil` when another run holds it.
    private func lock(_ session: String) -> Int32? {
        try? FileManager.default.createDirectory(atPath: movesFolder, withIntermediateDirectories: true)
        return Syscall.openLocked(movesFolder + "/" + session + ".lock")
    }

    /// Lets go of the move's lock (its folder is settled, or left for a later run).
    func unlock(_ move: Move) {
        if move.lock >= 0 { Syscall.close(move.lock) }
    }

    /// Checks that a file can be put in place from the move's folder with `link`, as ``finish(_:)`` does.
    /// - Throws: ``TransferSessionError`` (`commitFailed`) when the file system cannot (nothing is decided then).
    func checkLinks(_ move: Move) throws {
        let probe = move.folder + "/link-probe"
        Syscall.unlink(probe)
        defer { Syscall.unlink(probe) }
        do {
            try Syscall.link(move.folder + "/0", to: probe)
        } catch {
            throw TransferSessionError(
                code: .commitFailed,
                message: "\(folder) is on a file system without hard links, which a move needs to put its files in "
                    + "place without replacing any: move into another folder.", cause: error, source: folder)
        }
    }

    /// A file written into the destination folder.
    struct Written {
        /// Its path.
        var path: String
        /// Its size in bytes.
        var size: Int64
    }

    /// Starts a move: its folder and `move.json`, written durably before any file.
    func begin(session: DragSession.ID, from location: RemoteLocation, items: [DragItem]) throws -> Move {
        guard let lock = lock(session.rawValue) else {
            throw TransferSessionError(
                code: .commitFailed, message: "Another run holds a move of session \(session) here.",
                source: movesFolder)
        }
        let path = movesFolder + "/" + session.rawValue
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            Syscall.close(lock)
            throw error
        }
        let record = Record(
            session: session.rawValue, location: location.description,
            names: items.map(Self.fileName(of:)))
        do {
            try AtomicFile.writeDurably(Array(try JSONEncoder().encode(record)), toPath: path + "/move.json")
        } catch {
            Syscall.close(lock)
            throw error
        }
        return Move(folder: path, record: record, lock: lock)
    }

    /// The file name `item` gets here: the name its source suggests, made safe, with its first type's extension.
    static func fileName(of item: DragItem) -> String {
        DropCommand.fileName(suggested: item.provider.suggestedName, for: item.provider.registeredTypes.first ?? .data)
    }

    /// Where ``write(_:to:context:)`` puts a file.
    enum Target {
        /// A new file in the folder, under the first free form of the item's name.
        case newFile(inFolder: String)
        /// The pending file at the path, flushed to the disk.
        case pendingFile(String)
    }

    /// Loads `item`'s file (its first type: the file's own bytes) and writes it to `target`.
    func write(_ item: DragItem, to target: Target, context: CommandContext) async throws -> Written {
        let type = item.provider.registeredTypes.first ?? .data
        let names = TransferProvider.numberedFileNames(Self.fileName(of: item))
        var path = ""
        let size = try await PasteCommand.write(type, of: item.provider, context: context) { body in
            switch target {
            case .newFile(let folder):
                path = try await ArchiveOutput.writeNew(inDirectory: folder, firstFreeOf: names, body).path
            case .pendingFile(let pending):
                try await AtomicFile.write(toPath: pending) { descriptor in
                    try await body(FileDescriptorOutput(fileDescriptor: descriptor))
                    try Syscall.synchronize(descriptor)
                }
                path = pending
            }
        }
        return Written(path: path, size: size)
    }

    /// Puts a committed move's files in place, each under the first free form of its name, and removes the move's
    /// folder.
    /// - Returns: The files placed by this call.
    func finish(_ move: Move) throws -> [Written] {
        var placed: [Written] = []
        for (index, name) in move.record.names.enumerated() {
            let pending = move.folder + "/\(index)"
            guard let status = Syscall.linkStatus(atPath: pending) else { continue }  // placed before
            if status.linkCount < 2 {
                let linked: String
                do {
                    linked = try AtomicFile.link(
                        pending, inDirectory: folder + "/", firstFreeOf: TransferProvider.numberedFileNames(name))
                } catch {
                    throw ToolIOError.system(
                        .writeFailed, "cannot put \(name) in place in \(folder)", source: pending, cause: error)
                }
                placed.append(Written(path: folder + "/" + linked, size: status.size))
            }
            try Syscall.removeFile(pending)
        }
        discard(move)
        return placed
    }

    /// Removes a move's pending files and its folder (a move that did not happen, or one finished).
    func discard(_ move: Move) {
        try? FileManager.default.removeItem(atPath: move.folder)
        Syscall.unlink(move.folder + ".lock")
        // The hidden folder goes with its last move (`rmdir`, which leaves a folder that is not empty).
        _ = rmdir(movesFolder)
    }

    /// Settles every move an earlier run left: asks each one's far record (deciding `aborted` there when nobody
    /// decided) and finishes or discards it. A move whose far side cannot be asked stays, with a line on standard
    /// error.
    /// - Returns: How many moves could not be settled.
    func settle(timeout: Duration, context: CommandContext) async -> Int {
        var unsettled = 0
        let entries = Syscall.directoryEntries(atPath: movesFolder).sorted()
        for session in entries where !session.hasSuffix(".lock") {
            let path = movesFolder + "/" + session
            // A move another run holds is under way: it is not left over.
            guard let lock = lock(session) else { continue }
            let move = Move(folder: path, record: Record(session: session, location: "", names: []), lock: lock)
            defer { unlock(move) }
            guard Syscall.linkStatus(atPath: path + "/move.json") != nil else {
                // Its run went before it wrote down the move, so before it could ask for a decision: nothing moved.
                discard(move)
                continue
            }
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: path + "/move.json"))
                let record = try JSONDecoder().decode(Record.self, from: data)
                let move = Move(folder: path, record: record, lock: lock)
                let location = try RemoteLocation(parsing: record.location, option: "--into")
                let answer = try await location.run(
                    ["serve", "--decide", record.session, "--outcome", "aborted"], timeout: timeout)
                switch Self.outcome(answer) {
                case .committed?:
                    for line in try finish(move) {
                        try context.standardOutput.writeLine("moved\t\(line.path)\t\(line.size)")
                    }
                case .aborted?:
                    discard(move)
                case nil:
                    throw TransferSessionError(
                        code: .protocolViolation, message: "\(location) answered '\(answer)', no decision")
                }
            } catch {
                unsettled += 1
                try? context.standardError.writeLine(
                    "transferkit paste: the interrupted move in \(path) is not settled yet: \(error)")
            }
        }
        return unsettled
    }
}
