import TransferKit
import TransferKitPlatform
import TransferSessions

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The source's half of a cut moved to another machine (`paste --from ssh://HOST --into DIR` there, `serve --stdio
/// --files` here): the files this machine reserved for a session, marked durably, and the decision record that says
/// whether each move happened.
///
/// Two machines share no folder, so the record of such a move is this machine's (the source's): the destination
/// writes its `committed` there through a second command over the same transport (`serve --decide`) before it sends
/// its commit, and reads it there again when it lost track. This side marks the files it reserves before it tells
/// the destination (`SESSION.mark`, a JSON object of item identity to path, beside `SESSION.lock`, which the serving
/// process holds locked), and settles every mark whose process is gone: by the record's decision, deciding `aborted`
/// for a session nobody decided, it removes the files of a `committed` move and keeps the others.
struct OutgoingMoves: Sendable {
    /// The folder of the marks: `remote-moves` beside the standard record's folder.
    let folder: String
    /// The record of the moves' decisions: the user's standard one.
    let record: SessionDecisionRecord

    /// What a mark holds.
    struct Mark: Codable {
        /// The session's identity.
        var session: String
        /// Each reserved item's file.
        var paths: [String: String]
    }

    /// The marks and record of this user: `$XDG_STATE_HOME/transferkit/remote-moves` and the standard record.
    /// - Throws: ``TransferSessionError`` (`commitFailed`) when there is no state folder or it cannot be created.
    static func standard() throws -> OutgoingMoves {
        let record = try SessionDecisionRecord.standard()
        let folder = record.directory.deletingLastPathComponent().appendingPathComponent("remote-moves").path
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw TransferSessionError(
                code: .commitFailed, message: "The folder of remote moves cannot be created.", cause: error,
                source: folder)
        }
        return OutgoingMoves(folder: folder, record: record)
    }

    /// Settles every mark no running process holds: a `committed` move's files are removed, any other's kept, and
    /// the mark goes.
    /// - Returns: The files removed, and a line for each mark or file that could not be settled (it stays, for the
    ///   next time).
    @discardableResult
    func settle() -> (removed: [String], problems: [String]) {
        var removed: [String] = []
        var problems: [String] = []
        for name in Syscall.directoryEntries(atPath: folder).sorted() where name.hasSuffix(".mark") {
            let session = DragSession.ID(rawValue: String(name.dropLast(".mark".count)))
            guard let lock = try? lock(session) else { continue }  // a running serve holds it
            defer { Syscall.close(lock) }
            let markPath = folder + "/" + name
            // A mark that cannot be read was never whole, so its `reserved` was never sent: the move did not start.
            let mark = (try? Data(contentsOf: URL(fileURLWithPath: markPath))).flatMap {
                try? JSONDecoder().decode(Mark.self, from: $0)
            }
            do {
                let decision = try record.resolve(
                    session,
                    items: (mark?.paths.keys).map(Array.init)?.map {
                        TransferItemID($0)
                    } ?? [])
                if decision.outcome == .committed, let mark {
                    // (A file already gone was removed before the process that held the mark went.)
                    for path in mark.paths.values.sorted() where Syscall.linkStatus(atPath: path) != nil {
                        try Syscall.removeFile(path)
                        removed.append(path)
                    }
                }
                unmark(session)
            } catch {
                problems.append("\(markPath): \(error)")
            }
        }
        return (removed, problems)
    }

    /// Marks `paths` as reserved for `session`, durably, and returns the lock this process holds on the mark until
    /// ``unmark(_:)``; `nil` when the mark cannot be written (nothing is reserved then).
    func mark(_ paths: [TransferItemID: String], for session: DragSession.ID) -> Int32? {
        guard let lock = try? lock(session) else { return nil }
        let mark = Mark(
            session: session.rawValue,
            paths: Dictionary(uniqueKeysWithValues: paths.map { ($0.key.rawValue, $0.value) }))
        do {
            let bytes = Array(try JSONEncoder().encode(mark))
            try AtomicFile.writeDurably(bytes, toPath: markPath(session))
            return lock
        } catch {
            Syscall.close(lock)
            return nil
        }
    }

    /// Removes `session`'s mark (its files are settled) and its lock file.
    func unmark(_ session: DragSession.ID) {
        Syscall.unlink(markPath(session))
        Syscall.unlink(folder + "/" + session.rawValue + ".lock")
    }

    private func markPath(_ session: DragSession.ID) -> String {
        folder + "/" + session.rawValue + ".mark"
    }

    /// Opens and locks `session`'s lock file; throws when a session identity is not a plain name, the file cannot be
    /// opened, or another process holds it.
    private func lock(_ session: DragSession.ID) throws -> Int32 {
        guard SessionDecisionRecord.isFileName(session) else {
            throw TransferSessionError(code: .protocolViolation, message: "not a session identity")
        }
        let name = session.rawValue
        let descriptor = try Syscall.openForWriting(folder + "/" + name + ".lock")
        guard (try? Syscall.lockExclusively(descriptor)) == true else {
            Syscall.close(descriptor)
            throw TransferSessionError(code: .commitFailed, message: "held by a running process")
        }
        return descriptor
    }
}

/// The files of a cut on this machine's clipboard, served to another machine (`serve --stdio --files`): each is
/// removed only once the move to the other machine is decided `committed` in this machine's record.
final class CutFiles: DragSource {
    private let paths: [TransferItemID: String]
    private let moves: OutgoingMoves
    private let locks = SanitizedMutex<[DragSession.ID: Int32]>([:])

    /// The source of `paths`' files, marking its moves in `moves`.
    init(_ paths: [TransferItemID: String], moves: OutgoingMoves) {
        self.paths = paths
        self.moves = moves
    }

    /// The record the publication decides in.
    var decisions: SessionDecisionRecord? { moves.record }

    /// Reserves the files that still exist, once they are marked for `session` (none when the mark cannot be
    /// written: the move then cannot start).
    func reserve(_ items: [TransferItemID], for session: DragSession.ID) async -> [TransferItemID] {
        let held = items.filter { item in paths[item].map { Syscall.linkStatus(atPath: $0) != nil } ?? false }
        guard !held.isEmpty,
            let lock = moves.mark(paths.filter { held.contains($0.key) }, for: session)
        else { return [] }
        locks.withLock { $0[session] = lock }
        return held
    }

    /// The files a committed move could not remove, each with why; their marks stay, so the next `serve` here
    /// tries again.
    var failures: [String] { failedRemovals.withLock { $0 } }
    private let failedRemovals = SanitizedMutex<[String]>([])

    /// Removes the files: the move is decided `committed`. A file that cannot be removed keeps the mark.
    func remove(_ items: [TransferItemID], for session: DragSession.ID) async {
        var failed: [String] = []
        for item in items {
            guard let path = paths[item], Syscall.linkStatus(atPath: path) != nil else { continue }
            let removal = Result { () throws(SystemError) in try Syscall.removeFile(path) }
            if case .failure(let error) = removal { failed.append("\(path): \(error.reason)") }
        }
        guard failed.isEmpty else {
            failedRemovals.withLock { $0 += failed }
            if let lock = locks.withLock({ $0.removeValue(forKey: session) }) { Syscall.close(lock) }
            return
        }
        settled(session)
    }

    /// The move did not happen here, or this side lost the destination: the record has the last word (the
    /// destination may have decided `committed` already), deciding `aborted` when nobody decided.
    func release(_ items: [TransferItemID], for session: DragSession.ID) async {
        guard let decision = try? moves.record.resolve(session, items: items) else {
            // The record cannot be read: the mark stays, and the next `serve` settles it.
            if let lock = locks.withLock({ $0.removeValue(forKey: session) }) { Syscall.close(lock) }
            return
        }
        if decision.outcome == .committed {
            await remove(items, for: session)
        } else {
            settled(session)
        }
    }

    private func settled(_ session: DragSession.ID) {
        moves.unmark(session)
        if let lock = locks.withLock({ $0.removeValue(forKey: session) }) { Syscall.close(lock) }
    }
}
