import TransferKitPlatform

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Where the two processes of a cross-process move write down, once, whether the move happened: what makes a move
/// exactly-once even when either process dies in the middle.
///
/// Both processes point at the same directory. Each decision is a file named after the session, created whole and
/// only once (written aside, flushed to disk, then linked into place, which fails if the name exists): the first
/// process to decide wins, and the other reads the winner's decision.
///
/// - The **destination** decides ``Outcome/committed`` after it has stored the items durably, marked as pending
///   for the session, and before it tells the source.
/// - The **source** decides ``Outcome/aborted`` when the destination disconnects before the commit arrives.
///
/// **Where the item ends up** — the record says. An item is in the destination if and only if the session's
/// decision is `committed`; otherwise it stays in the source. After a crash each side applies the record when it
/// starts again:
/// - the source removes the items of every `committed` decision it still holds (``decisions()``);
/// - the destination keeps its pending items of a session whose decision is `committed` and drops the others,
///   deciding `aborted` first for a session nobody decided yet (``resolve(_:items:)``), so a source that comes
///   back later agrees.
///
/// ```swift
/// let record = try SessionDecisionRecord(directory: URL(fileURLWithPath: "/run/user/1000/notes-drags"))
/// for decision in try record.decisions() where decision.outcome == .committed {
///     try list.edit { $0.removeAll { decision.items.contains(TransferItemID(of: $0)) } }
/// }
/// ```
public final class SessionDecisionRecord: Sendable {
    /// Whether a move happened.
    public enum Outcome: String, Codable, Sendable, Hashable {
        /// The destination holds the items; the source must not.
        case committed
        /// The source keeps the items; the destination must not hold them.
        case aborted
    }

    /// One session's decision.
    public struct Decision: Codable, Sendable, Hashable {
        /// The session's identity.
        public var session: String
        /// Whether the move happened.
        public var outcome: Outcome
        /// The items the decision is about: those the source had reserved.
        public var items: [String]

        /// The items as identities.
        public var itemIDs: [TransferItemID] { items.map { TransferItemID($0) } }
    }

    /// The directory of the decisions.
    public let directory: URL

    private static let suffix = ".decision"

    /// A record in `directory`, which is created if it does not exist.
    /// - Throws: ``TransferSessionError`` with `commitFailed` when the directory cannot be created.
    public init(directory: URL) throws(TransferSessionError) {
        self.directory = directory
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw TransferSessionError(
                code: .commitFailed, message: "The decision record's directory cannot be created.", cause: error,
                source: directory.path)
        }
    }

    /// The record every process of this user finds without configuration: the folder `transferkit/session-decisions`
    /// in the user's state directory (`$XDG_STATE_HOME`, or `~/.local/state` when that is unset, as the XDG Base
    /// Directory specification has it). A stored ``TransferList`` uses it unless it is given another record.
    ///
    /// The state directory, not the runtime one: a decision must outlive a reboot as long as the lists it settles do.
    /// - Throws: ``TransferSessionError`` with `commitFailed` when no home directory is known or the folder cannot be
    ///   created.
    public static func standard() throws(TransferSessionError) -> SessionDecisionRecord {
        guard let directory = standardDirectory(environment: ProcessInfo.processInfo.environment) else {
            throw TransferSessionError(
                code: .commitFailed,
                message: "Neither XDG_STATE_HOME nor HOME is set, so the standard decision record has no place; "
                    + "give the list a record of its own (decisions:).")
        }
        return try SessionDecisionRecord(directory: directory)
    }

    /// The folder of ``standard()`` under `environment`: `$XDG_STATE_HOME` when it is an absolute path (the
    /// specification ignores a relative one), else `$HOME/.local/state`; `nil` when neither is set.
    package static func standardDirectory(environment: [String: String]) -> URL? {
        let state: String
        if let value = environment["XDG_STATE_HOME"], value.hasPrefix("/") {
            state = value
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            state = home + "/.local/state"
        } else {
            return nil
        }
        return URL(fileURLWithPath: state, isDirectory: true).appendingPathComponent("transferkit/session-decisions")
    }

    /// Records `outcome` for `session` unless a decision exists already.
    /// - Returns: The session's decision: this one, or the one that was there first.
    /// - Throws: ``TransferSessionError`` with `commitFailed` when the record cannot be written or read.
    @discardableResult
    public func decide(
        _ outcome: Outcome, for session: DragSession.ID, items: [TransferItemID]
    ) throws(TransferSessionError) -> Decision {
        let decision = Decision(session: session.rawValue, outcome: outcome, items: items.map(\.rawValue))
        let path = try self.path(for: session)
        do {
            let bytes = Array(try JSONEncoder().encode(decision))
            // (A Result rather than a `catch where` on the typed error: Swift 6.3's ownership checker crashes on
            // that form here.)
            let linked = Result { () throws(SystemError) in
                try AtomicFile.writeDurably(bytes, toPath: path, replacingExisting: false)
            }
            guard case .failure(let failure) = linked else {
                return decision
            }
            guard failure.errorNumber == ErrorNumber.fileExists, let existing = try self.decision(for: session) else {
                throw failure
            }
            return existing
        } catch let error as TransferSessionError {
            throw error
        } catch {
            throw TransferSessionError(
                code: .commitFailed, message: "The decision of session \(session) cannot be recorded.", cause: error,
                source: path)
        }
    }

    /// Settles a session after a crash: the decision that exists, else `aborted` (the destination, which did not
    /// get to decide `committed`, gives the items back).
    /// - Returns: The session's decision.
    /// - Throws: ``TransferSessionError`` with `commitFailed` when the record cannot be written or read.
    @discardableResult
    public func resolve(_ session: DragSession.ID, items: [TransferItemID]) throws(TransferSessionError) -> Decision {
        try decide(.aborted, for: session, items: items)
    }

    /// The decision of `session`, or `nil` when none was made.
    /// - Throws: ``TransferSessionError`` with `commitFailed` when the record cannot be read or is not a decision.
    public func decision(for session: DragSession.ID) throws(TransferSessionError) -> Decision? {
        let path = try self.path(for: session)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            let decision = try JSONDecoder().decode(Decision.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
            guard decision.session == session.rawValue else {
                throw TransferSessionError(code: .commitFailed, message: "The file holds another session's decision.")
            }
            return decision
        } catch let error as TransferSessionError {
            throw error
        } catch {
            throw TransferSessionError(
                code: .commitFailed, message: "The decision of session \(session) cannot be read.", cause: error,
                source: path)
        }
    }

    /// Every recorded decision, in no particular order.
    /// - Throws: ``TransferSessionError`` with `commitFailed` when one cannot be read.
    public func decisions() throws(TransferSessionError) -> [Decision] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var decisions: [Decision] = []
        for name in names.sorted() where name.hasSuffix(Self.suffix) && !name.hasPrefix(".") {
            let id = DragSession.ID(rawValue: String(name.dropLast(Self.suffix.count)))
            if let decision = try decision(for: id) {
                decisions.append(decision)
            }
        }
        return decisions
    }

    /// Forgets `session`'s decision, once both sides have applied it.
    public func forget(_ session: DragSession.ID) {
        if let path = try? path(for: session) {
            Syscall.unlink(path)
        }
    }

    /// Whether `session` can name a file of the record (and of anything kept beside it): 1 to 128 ASCII letters,
    /// digits, `-` or `_`.
    package static func isFileName(_ session: DragSession.ID) -> Bool {
        let name = session.rawValue
        return !name.isEmpty && name.utf8.count <= 128
            && name.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x2D || byte == 0x5F
            }
    }

    /// The file of `session`'s decision; a session identity that is not a plain file name is refused.
    private func path(for session: DragSession.ID) throws(TransferSessionError) -> String {
        let name = session.rawValue
        guard Self.isFileName(session) else {
            throw TransferSessionError(
                code: .protocolViolation,
                message: "A session identity must be 1 to 128 letters, digits, '-' or '_' to be recorded.",
                source: name)
        }
        return directory.path + "/" + name + Self.suffix
    }
}
