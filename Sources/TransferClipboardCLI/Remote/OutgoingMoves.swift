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
        /// Each reserved file's identity when it was reserved, by path: a file made anew under the name is not the
        /// one moved, and is never removed for it.
        var identities: [String: FileIdentity]
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

    /// Settles every mark no running process holds: a `committed` move's files are removed (each only if it is still
    /// the file reserved), any other's kept, and the mark goes. A lock file left without a mark (a serve killed
    /// before it wrote one) goes too.
    /// - Returns: The files removed, and a line for each mark or file that could not be settled (it stays, for the
    ///   next time).
    @discardableResult
    func settle() -> (removed: [String], problems: [String]) {
        var removed: [String] = []
        var problems: [String] = []
        let names = Syscall.directoryEntries(atPath: folder).sorted()
        for name in names where name.hasSuffix(".lock") {
            let session = DragSession.ID(rawValue: String(name.dropLast(".lock".count)))
            guard !names.contains(session.rawValue + ".mark"), let lock = try? lock(session) else { continue }
            Syscall.unlink(folder + "/" + name)  // reserved nothing: its process went before marking
            Syscall.close(lock)
        }
        for name in names where name.hasSuffix(".mark") {
            let session = DragSession.ID(rawValue: String(name.dropLast(".mark".count)))
            guard let lock = try? lock(session) else { continue }  // a running serve holds it
            defer { Syscall.close(lock) }
            let markPath = folder + "/" + name
            do {
                // A mark is written whole or not at all (renamed into place), so one that cannot be read is damaged:
                // it stays, reported, rather than be taken for a move that never started.
                let mark = try JSONDecoder().decode(Mark.self, from: Data(contentsOf: URL(fileURLWithPath: markPath)))
                let decision = try record.resolve(session, items: mark.paths.keys.sorted().map { TransferItemID($0) })
                if decision.outcome == .committed {
                    let (gone, failed) = Self.remove(mark)
                    removed += gone
                    guard failed.isEmpty else {
                        problems += failed.map { "\(markPath): \($0)" }
                        continue
                    }
                }
                unmark(session)
            } catch {
                problems.append("\(markPath): \(error)")
            }
        }
        return (removed, problems)
    }

    /// Removes a committed move's files that are still the ones reserved.
    /// - Returns: The paths removed, and a line for each file that is there but could not be removed or is another
    ///   file now (made anew under the name: it is not removed).
    static func remove(_ mark: Mark) -> (removed: [String], failed: [String]) {
        var removed: [String] = []
        var failed: [String] = []
        for path in Set(mark.paths.values).sorted() {
            guard let status = Syscall.linkStatus(atPath: path) else { continue }  // removed already
            guard status.identity == mark.identities[path] else {
                failed.append("\(path) is another file than the one moved; it is left")
                continue
            }
            let removal = Result { () throws(SystemError) in try Syscall.removeFile(path) }
            if case .failure(let error) = removal {
                failed.append("\(path): \(error.reason)")
            } else {
                removed.append(path)
            }
        }
        return (removed, failed)
    }

    /// Marks `paths` as reserved for `session`, durably, and returns the lock this process holds on the mark until
    /// ``unmark(_:)``; `nil` when the mark cannot be written (nothing is reserved then).
    func mark(_ mark: Mark, for session: DragSession.ID) -> Int32? {
        guard let lock = try? lock(session) else { return nil }
        do {
            let bytes = Array(try JSONEncoder().encode(mark))
            try AtomicFile.writeDurably(bytes, toPath: markPath(session))
            return lock
        } catch {
            Syscall.unlink(folder + "/" + session.rawValue + ".lock")
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
        guard let descriptor = Syscall.openLocked(folder + "/" + session.rawValue + ".lock") else {
            throw TransferSessionError(code: .commitFailed, message: "held by a running process, or not writable")
        }
        return descriptor
    }
}

/// The files of a cut on this machine's clipboard, served to another machine (`serve --stdio --files`): each is
/// removed only once the move to the other machine is decided `committed` in this machine's record.
///
/// A reserved file is also locked (`flock(2)` on the file itself) for as long as this process holds its
/// reservation, so that two serves at once (two pastes, from one machine or two) never reserve the same file; and
/// marks that gone serves left are settled just before each reservation, so a file a dead serve's committed move
/// still owes is removed, not moved again.
final class CutFiles: DragSource {
    private let paths: [TransferItemID: String]
    private let moves: OutgoingMoves
    private struct Held {
        /// What the mark says.
        var mark: OutgoingMoves.Mark
        /// The mark's lock.
        var lock: Int32
        /// The reserved files' own locks.
        var files: [Int32]
    }
    private let held = SanitizedMutex<[DragSession.ID: Held]>([:])
    private let failedRemovals = SanitizedMutex<[String]>([])

    /// The source of `paths`' files, marking its moves in `moves`.
    init(_ paths: [TransferItemID: String], moves: OutgoingMoves) {
        self.paths = paths
        self.moves = moves
    }

    /// The record the publication decides in.
    var decisions: SessionDecisionRecord? { moves.record }

    /// The files a committed move could not remove, each with why; their marks stay, so the next `serve` here
    /// tries again.
    var failures: [String] { failedRemovals.withLock { $0 } }

    /// Opens once the last reservation held is let go (a stream serves one destination, so one drop at most).
    private let letGo = Latch<Void>()

    /// Waits until no reservation is held (its move settled: removed, kept, or left marked), at most until
    /// `deadline`.
    func settled(until deadline: Deadline) async {
        guard held.withLock({ !$0.isEmpty }) else { return }
        _ = try? await letGo.wait(until: deadline)
    }

    /// Reserves the files that still exist and no other serve holds, once they are marked for `session` (none when
    /// the mark cannot be written: the move then cannot start).
    func reserve(_ items: [TransferItemID], for session: DragSession.ID) async -> [TransferItemID] {
        moves.settle()
        var reserved: [TransferItemID] = []
        var locks: [Int32] = []
        var identities: [String: FileIdentity] = [:]
        for item in items {
            guard let path = paths[item], let descriptor = try? Syscall.openForReading(path, nonBlocking: true)
            else { continue }
            guard (try? Syscall.lockExclusively(descriptor)) == true, let status = try? Syscall.status(descriptor),
                status.isRegularFile
            else {
                Syscall.close(descriptor)
                continue
            }
            locks.append(descriptor)
            identities[path] = status.identity
            reserved.append(item)
        }
        let mark = OutgoingMoves.Mark(
            session: session.rawValue,
            paths: Dictionary(
                uniqueKeysWithValues: reserved.compactMap { item in paths[item].map { (item.rawValue, $0) } }),
            identities: identities)
        guard !reserved.isEmpty, let lock = moves.mark(mark, for: session) else {
            for descriptor in locks { Syscall.close(descriptor) }
            return []
        }
        held.withLock { $0[session] = Held(mark: mark, lock: lock, files: locks) }
        return reserved
    }

    /// Removes the files: the move is decided `committed`. A file that cannot be removed keeps the mark.
    func remove(_ items: [TransferItemID], for session: DragSession.ID) async {
        guard let mark = held.withLock({ $0[session]?.mark }) else { return }  // not reserved here
        let (_, failed) = OutgoingMoves.remove(mark)
        failedRemovals.withLock { $0 += failed }
        release(session, unmarking: failed.isEmpty)
    }

    /// The move did not happen here, or this side lost the destination: the record has the last word (the
    /// destination may have decided `committed` already), deciding `aborted` when nobody decided.
    func release(_ items: [TransferItemID], for session: DragSession.ID) async {
        guard let decision = try? moves.record.resolve(session, items: items) else {
            // The record cannot be read: the mark stays, and the next `serve` here settles it.
            release(session, unmarking: false)
            return
        }
        if decision.outcome == .committed {
            await remove(items, for: session)
        } else {
            release(session, unmarking: true)
        }
    }

    /// Lets go of `session`'s locks, removing its mark first when it is settled.
    private func release(_ session: DragSession.ID, unmarking: Bool) {
        if unmarking { moves.unmark(session) }
        guard
            let (released, isEmpty) = held.withLock({ held in
                held.removeValue(forKey: session).map { ($0, held.isEmpty) }
            })
        else { return }
        for descriptor in released.files { Syscall.close(descriptor) }
        Syscall.close(released.lock)
        if isEmpty { _ = letGo.open() }
    }
}
