public import TransferKit
import TransferKitPlatform

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension TransferList where Element: Codable {
    /// A list kept in `directory`, opened as it was left: every change is written durably before it counts, and a
    /// move between two processes stays exactly-once when either process is killed at any step, with no code of the
    /// app's own.
    ///
    /// What a move needs is the list's: as a move's source it marks the reserved elements durably before the
    /// destination may take them and removes them when the commit comes; as a destination it stores the dropped
    /// elements marked *pending* before it commits, and a ``SessionDecisionRecord`` decides, first writer winning.
    /// Opening the list again settles whatever a crash left marked: a source removes the elements of moves the
    /// record says were committed, a destination drops the pending elements of moves it says were aborted (deciding
    /// `aborted` first for a move nobody decided). Publishing a drag of the list (``DragSessionPublication``) and
    /// dropping a published one on it (`drop(_:at:operation:decisions:)`) use the list's record by themselves.
    ///
    /// ```swift
    /// let cards = try TransferList<Card>(storedIn: URL(fileURLWithPath: "/home/me/.local/share/cards/left"))
    /// ```
    ///
    /// The directory holds `list.json` (the elements as JSON, with the marks; replaced whole, flushed to disk, at
    /// each change) and `list.lock`: one open list per directory, in all processes. The format is
    /// Schemas/transfer-session.md section 6.
    /// - Parameters:
    ///   - directory: The list's directory; created if it does not exist.
    ///   - initialElements: The elements of a list that is not stored yet; ignored when the directory holds one.
    ///   - decisions: The record both processes of a move share. By default ``SessionDecisionRecord/standard()``,
    ///     the one every process of this user finds without configuration.
    ///   - isPinned: Which elements stay where they are (seed 003's fixed cells).
    ///   - makeCopy: The element a copy drop inserts: the same content under a new identity.
    ///   - makeProvider: The provider a dragged element carries to other processes; by default an empty one.
    /// - Throws: ``TransferSessionError`` with `storeCorrupted` when `list.json` is not a list this library wrote
    ///   (truncated, not JSON, another shape or version, an element that does not decode, an identity twice), and
    ///   `storeUnavailable` when the directory or the record cannot be read or written, or another open list uses
    ///   the directory; `forbiddenByList` when a new list's `initialElements` have an identity twice.
    public convenience init(
        storedIn directory: URL, initialElements: [Element] = [], decisions: SessionDecisionRecord? = nil,
        isPinned: @escaping @Sendable (Element) -> Bool = { _ in false },
        makeCopy: @escaping @Sendable (Element) -> Element = { $0 },
        makeProvider: @escaping @Sendable (Element) -> TransferProvider = { _ in TransferProvider() }
    ) throws(TransferSessionError) {
        try self.init(
            opening: directory, initialElements, decisions, isPinned, makeCopy, makeProvider, order: nil)
    }

    /// A stored list (as `init(storedIn:initialElements:decisions:isPinned:makeCopy:makeProvider:)`) of elements
    /// that write their own representations: a dragged element carries a provider of the element itself, so drops
    /// in other processes can load it.
    /// - Parameters:
    ///   - directory: The list's directory; created if it does not exist.
    ///   - initialElements: The elements of a list that is not stored yet; ignored when the directory holds one.
    ///   - decisions: The record both processes of a move share; by default ``SessionDecisionRecord/standard()``.
    ///   - isPinned: Which elements stay where they are.
    ///   - makeCopy: The element a copy drop inserts: the same content under a new identity.
    ///   - makeProvider: The provider a dragged element carries to other processes.
    /// - Throws: ``TransferSessionError`` with `storeCorrupted` or `storeUnavailable`, as the other stored list's
    ///   initializer.
    public convenience init(
        storedIn directory: URL, initialElements: [Element] = [], decisions: SessionDecisionRecord? = nil,
        isPinned: @escaping @Sendable (Element) -> Bool = { _ in false },
        makeCopy: @escaping @Sendable (Element) -> Element = { $0 },
        makeProvider: @escaping @Sendable (Element) -> TransferProvider = { TransferProvider(object: $0) }
    ) throws(TransferSessionError) where Element: TransferProviderWriting {
        try self.init(
            opening: directory, initialElements, decisions, isPinned, makeCopy, makeProvider, order: nil)
    }

    /// A stored list (as `init(storedIn:initialElements:decisions:isPinned:makeCopy:makeProvider:)`) that keeps each
    /// element's `order`-style field equal to its index after every change (seed 002).
    /// - Parameters:
    ///   - directory: The list's directory; created if it does not exist.
    ///   - initialElements: The elements of a list that is not stored yet; ignored when the directory holds one.
    ///   - decisions: The record both processes of a move share; by default ``SessionDecisionRecord/standard()``.
    ///   - isPinned: Which elements stay where they are.
    ///   - makeCopy: The element a copy drop inserts: the same content under a new identity.
    ///   - makeProvider: The provider a dragged element carries to other processes; by default an empty one.
    ///   - renumbering: The field the list sets to each element's index after every change.
    /// - Throws: ``TransferSessionError``, as the other stored list's initializer.
    public convenience init(
        storedIn directory: URL, initialElements: [Element] = [], decisions: SessionDecisionRecord? = nil,
        isPinned: @escaping @Sendable (Element) -> Bool = { _ in false },
        makeCopy: @escaping @Sendable (Element) -> Element = { $0 },
        makeProvider: @escaping @Sendable (Element) -> TransferProvider = { _ in TransferProvider() },
        renumbering: any WritableKeyPath<Element, Int> & Sendable
    ) throws(TransferSessionError) {
        try self.init(
            opening: directory, initialElements, decisions, isPinned, makeCopy, makeProvider, order: renumbering)
    }

    /// A stored list of elements that write their own representations, keeping each element's `order`-style field
    /// equal to its index after every change.
    /// - Parameters:
    ///   - directory: The list's directory; created if it does not exist.
    ///   - initialElements: The elements of a list that is not stored yet; ignored when the directory holds one.
    ///   - decisions: The record both processes of a move share; by default ``SessionDecisionRecord/standard()``.
    ///   - isPinned: Which elements stay where they are.
    ///   - makeCopy: The element a copy drop inserts: the same content under a new identity.
    ///   - makeProvider: The provider a dragged element carries to other processes.
    ///   - renumbering: The field the list sets to each element's index after every change.
    /// - Throws: ``TransferSessionError``, as the other stored list's initializer.
    public convenience init(
        storedIn directory: URL, initialElements: [Element] = [], decisions: SessionDecisionRecord? = nil,
        isPinned: @escaping @Sendable (Element) -> Bool = { _ in false },
        makeCopy: @escaping @Sendable (Element) -> Element = { $0 },
        makeProvider: @escaping @Sendable (Element) -> TransferProvider = { TransferProvider(object: $0) },
        renumbering: any WritableKeyPath<Element, Int> & Sendable
    ) throws(TransferSessionError) where Element: TransferProviderWriting {
        try self.init(
            opening: directory, initialElements, decisions, isPinned, makeCopy, makeProvider, order: renumbering)
    }

    /// What every stored list's initializer does: opens (or creates) the list and settles it.
    private convenience init(
        opening directory: URL, _ initialElements: [Element], _ decisions: SessionDecisionRecord?,
        _ isPinned: @escaping @Sendable (Element) -> Bool, _ makeCopy: @escaping @Sendable (Element) -> Element,
        _ makeProvider: @escaping @Sendable (Element) -> TransferProvider,
        order: (any WritableKeyPath<Element, Int> & Sendable)?
    ) throws(TransferSessionError) {
        let (elements, storage) = try Self.open(directory, initialElements: initialElements, decisions: decisions)
        self.init(
            storing: elements, storage: storage, isPinned: isPinned, makeCopy: makeCopy, makeProvider: makeProvider,
            order: order)
    }

    /// Reads (or creates) the list in `directory` and settles the moves a crash left marked.
    private static func open(
        _ directory: URL, initialElements: [Element], decisions: SessionDecisionRecord?
    ) throws(TransferSessionError) -> ([Element], Storage) {
        let folder = directory.standardizedFileURL.path
        func unavailable(_ message: String, _ cause: (any Error)? = nil) -> TransferSessionError {
            TransferSessionError(code: .storeUnavailable, message: message, cause: cause, source: folder)
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw unavailable("The list's directory cannot be created.", error)
        }
        let lock: StoreLock
        do {
            lock = try StoreLock(path: folder + "/list.lock")
        } catch {
            throw unavailable("The list's lock file cannot be opened: \(error.reason).", error)
        }
        guard lock.isHeld else {
            throw unavailable("Another open list (in this process or another) uses this directory; close it first.")
        }
        let record: SessionDecisionRecord
        do throws(TransferSessionError) {
            if let decisions {
                record = decisions
            } else {
                record = try SessionDecisionRecord.standard()
            }
        } catch {
            throw unavailable("The standard decision record cannot be used: \(error.message)", error)
        }
        let storage = Storage(path: folder + "/list.json", record: record, lock: lock) { state in
            try StoredList(elements: state.elements, pending: state.pending, outgoing: state.outgoing).encoded()
        }
        guard var stored = try StoredList<Element>.read(atPath: storage.path) else {
            if let twice = repeatedIdentity(in: initialElements) {
                throw TransferSessionError(
                    code: .forbiddenByList, message: "The initial elements have the identity \(twice) twice.",
                    source: "\(twice)")
            }
            try storage.write(State(elements: initialElements))
            return (initialElements, storage)
        }
        guard !stored.pending.isEmpty || !stored.outgoing.isEmpty else {
            return (stored.elements, storage)
        }
        do {
            // A source removes what committed moves took; a destination drops what aborted moves brought.
            let marks = [(stored.outgoing, SessionDecisionRecord.Outcome.committed), (stored.pending, .aborted)]
            for (sessions, removing) in marks {
                for (session, items) in sessions.sorted(by: { $0.key < $1.key }) {
                    if try record.settle(DragSession.ID(rawValue: session), items: items) == removing {
                        stored.elements.removeElements(withIDs: items.compactMap { Element.ID($0) })
                    }
                }
            }
        } catch {
            throw unavailable("The moves this list has in flight cannot be settled: \(error.message)", error)
        }
        try storage.write(State(elements: stored.elements))
        return (stored.elements, storage)
    }
}

extension TransferList {
    /// Decides `committed` for a move into this list from another stored list of the same record, as the last step
    /// of the drop's commit.
    func decideCommitted(
        _ session: DragSession.ID, items: [TransferItemID], in record: SessionDecisionRecord
    ) throws(TransferSessionError) {
        guard try record.decide(.committed, for: session, items: items).outcome == .committed else {
            throw TransferSessionError(
                code: .commitFailed, message: "The decision record says this move was aborted.",
                source: session.rawValue)
        }
    }

    /// Whether a move from `source` into this stored list is decided in the record, as across processes: the source
    /// is another stored list of the same record.
    func decidesMove(from source: (any DragSource)?) -> Bool {
        guard let own = storage?.record.directory, let theirs = source?.decisions?.directory, source !== self else {
            return false
        }
        return own.standardizedFileURL.path == theirs.standardizedFileURL.path
    }

    /// Where a stored list is written, and how.
    struct Storage: Sendable {
        /// The path of `list.json`.
        let path: String
        /// The record the list's moves are decided in.
        let record: SessionDecisionRecord
        /// Held while the list is open.
        let lock: StoreLock
        /// The file's bytes for a state.
        let encode: @Sendable (State) throws -> [UInt8]

        init(
            path: String, record: SessionDecisionRecord, lock: StoreLock,
            encode: @escaping @Sendable (State) throws -> [UInt8]
        ) {
            self.path = path
            self.record = record
            self.lock = lock
            self.encode = encode
        }

        /// Replaces the file with `state`'s elements and marks, durably.
        /// - Throws: ``TransferSessionError`` with `storeUnavailable` when it cannot.
        func write(_ state: State) throws(TransferSessionError) {
            do {
                try AtomicFile.writeDurably(try encode(state), toPath: path)
            } catch {
                throw TransferSessionError(
                    code: .storeUnavailable, message: "The list cannot be written, so the change was not made.",
                    cause: error, source: path)
            }
        }
    }

    /// Keeps or drops the pending elements of `session`'s move into this stored list by its decision, deciding
    /// `aborted` when nobody decided: what a destination does when its drop ends, however it ends. When the record
    /// cannot be read, the elements stay pending, and opening the list again settles them.
    func settle(_ session: DragSession.ID) {
        guard let storage else { return }
        state.withLock { state in
            guard let items = state.pending[session.rawValue],
                let outcome = try? storage.record.settle(session, items: items)
            else { return }
            let ids = outcome == .aborted ? items.compactMap { Element.ID($0) } : []
            _ = try? change(&state, ids.isEmpty ? .edited : .undone(session), mustApply: true) {
                next throws(TransferSessionError) in
                next.elements.removeElements(withIDs: ids)
                next.pending[session.rawValue] = nil
            }
        }
    }
}

extension SessionDecisionRecord {
    /// The outcome of `session`: its decision, else `aborted`, decided now.
    fileprivate func settle(_ session: DragSession.ID, items: [String]) throws(TransferSessionError) -> Outcome {
        if let decision = try decision(for: session) {
            return decision.outcome
        }
        return try resolve(session, items: items.map { TransferItemID($0) }).outcome
    }
}

/// An exclusive lock on a stored list's directory, held while the list is open (the kernel drops it when the
/// process dies).
final class StoreLock: Sendable {
    private let descriptor: Int32
    /// Whether this process got the lock.
    let isHeld: Bool

    init(path: String) throws(SystemError) {
        descriptor = try Syscall.openForWriting(path)
        do {
            isHeld = try Syscall.lockExclusively(descriptor)
        } catch {
            Syscall.close(descriptor)
            throw error
        }
    }

    deinit {
        Syscall.close(descriptor)
    }
}

/// The file of a stored list (Schemas/transfer-session.md section 6).
struct StoredList<Element: Codable & Identifiable>: Codable where Element.ID: LosslessStringConvertible {
    /// What every such file says it is.
    static var format: String { "org.transferkit.list" }
    /// The version this library writes and reads.
    static var version: Int { 1 }

    var format = Self.format
    var version = Self.version
    var elements: [Element]
    /// Pending elements of moves into the list, by session.
    var pending: [String: [String]]
    /// Reserved elements of moves out of the list, by session.
    var outgoing: [String: [String]]

    init(elements: [Element], pending: [String: [String]], outgoing: [String: [String]]) {
        self.elements = elements
        self.pending = pending
        self.outgoing = outgoing
    }

    func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array(try encoder.encode(self))
    }

    /// The list at `path`, or `nil` when there is no file.
    /// - Throws: ``TransferSessionError`` with `storeCorrupted` or `storeUnavailable`.
    static func read(atPath path: String) throws(TransferSessionError) -> Self? {
        func corrupted(_ message: String, _ cause: (any Error)? = nil) -> TransferSessionError {
            TransferSessionError(
                code: .storeCorrupted,
                message: "The stored list is damaged: \(message) Restore it from a backup or move it aside.",
                cause: cause, source: path)
        }
        let bytes: [UInt8]
        switch RegularFile.read(atPath: path, limit: 1 << 30) {
        case .success(let read):
            bytes = read
        case .failure(.missing):
            return nil
        case .failure(.notRegular):
            throw corrupted("it is not a regular file.")
        case .failure(.tooLarge(let size, let limit)):
            throw corrupted("it has \(size) bytes, more than the \(limit) a list may have.")
        case .failure(.system(let error)):
            throw TransferSessionError(
                code: .storeUnavailable, message: "The stored list cannot be read: \(error.reason).", cause: error,
                source: path)
        }
        let list: Self
        do {
            list = try JSONDecoder().decode(Self.self, from: Data(bytes))
        } catch {
            throw corrupted("it is not a list's JSON (truncated, or an element that does not decode).", error)
        }
        guard list.format == format, list.version == version else {
            throw corrupted("it is \(list.format) version \(list.version), not \(format) version \(version).")
        }
        if let twice = repeatedIdentity(in: list.elements) {
            throw corrupted("the identity \(twice) is there twice.")
        }
        return list
    }
}

/// The first identity that `elements` hold twice, if any.
private func repeatedIdentity<Element: Identifiable>(in elements: [Element]) -> Element.ID? {
    var seen = Set<Element.ID>()
    return elements.first { !seen.insert($0.id).inserted }?.id
}
