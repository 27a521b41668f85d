import Foundation
import TransferKit
import TransferSessions

/// Seed 000 between two processes: a list of cards in one process, another list in a second process, and a drag
/// from the first to the second that moves each card exactly once, even when either process is killed mid-drop.
///
/// Each list lives in a JSON file, so a process that dies leaves what it had stored, and the two share a
/// ``SessionDecisionRecord``:
/// - `CharacterCards session-source LIST SOCKET RECORD CARD [--pause-at EVENT]` drags `CARD` out of `LIST`,
///   publishes the drag at `SOCKET` and waits for the drop; after a move it stores the list without the card.
/// - `CharacterCards session-destination LIST SOCKET RECORD [--pause-at EVENT]` connects, drops the card at the
///   top of `LIST`: it stores the card marked *pending* for the session, records the decision, tells the source,
///   and then stores it as settled.
/// - `CharacterCards session-recover LIST RECORD source|destination` is what each process runs when it starts
///   again: the source removes the cards of committed moves; the destination keeps its pending cards of committed
///   sessions and drops the others.
///
/// The same move with stored lists (`TwoProcesses+StoredList.swift`), where the lists do all of the above:
/// - `CharacterCards stored-source DIR SOCKET CARD [--pause-at EVENT]` and
///   `CharacterCards stored-destination DIR SOCKET [--pause-at EVENT]` do what the two commands above do, on the
///   stored lists in `DIR` (the user's standard decision record);
/// - `CharacterCards stored-open DIR` opens the list, which settles it after a crash, and prints its cards.
///
/// `--timeout SECONDS` sets the sessions' time limit (30 seconds by default): a test whose other side runs in a busy
/// test process gives it more. `--pause-at EVENT` (a ``RemoteSessionEvent``) prints `paused at EVENT` and stops there, so a test can kill the
/// process at that step.
///
/// Neither side names its application: both run an executable of the same installation, so
/// ``TransferSessionOrigin/defaultApplicationIdentifier`` makes them one application, and a move between them is
/// a move within it (Apple's rule allows it).
enum TwoProcesses {
    /// A list of cards on disk, with the cards a destination holds pending, by session.
    struct StoredList: Codable {
        var cards: [StoredCard]
        var pending: [String: [String]] = [:]

        static func read(_ path: String) throws -> StoredList {
            try JSONDecoder().decode(StoredList.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        }

        /// Writes the whole list at once (a crash leaves the old file or the new one).
        func write(_ path: String) throws {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try encoder.encode(self).write(to: URL(fileURLWithPath: path), options: .atomic)
        }

        var names: [String] { cards.map(\.name) }
    }

    /// A card as stored.
    struct StoredCard: Codable {
        var name: String
        var character: String
        var favorite: String

        init(_ model: Model) {
            (name, character, favorite) = (model.name, model.character, model.favorite)
        }

        var model: Model { Model(name: name, character: character, favorite: favorite) }
    }

    /// Runs one of the subcommands; `false` when `arguments` name none.
    static func run(_ arguments: [String]) async throws -> Bool {
        var arguments = arguments
        var pauseAt: RemoteSessionEvent?
        if let flag = arguments.firstIndex(of: "--pause-at"), flag + 1 < arguments.count {
            pauseAt = RemoteSessionEvent(rawValue: arguments[flag + 1])
            arguments.removeSubrange(flag...(flag + 1))
        }
        var timeout = Duration.seconds(30)
        if let flag = arguments.firstIndex(of: "--timeout"), flag + 1 < arguments.count {
            timeout = .seconds(Int(arguments[flag + 1]) ?? 30)
            arguments.removeSubrange(flag...(flag + 1))
        }
        let pause = pauseAt
        let observer: @Sendable (RemoteSessionEvent) async -> Void = { event in
            guard event == pause else { return }
            // Unbuffered, so a test that reads the output sees it at once.
            FileHandle.standardOutput.write(Data("paused at \(event)\n".utf8))
            // Wait to be killed.
            while true { try? await Task.sleep(for: .seconds(60)) }
        }
        switch (arguments.first, arguments.count) {
        case ("session-source", 5):
            let record = try SessionDecisionRecord(directory: URL(fileURLWithPath: arguments[3]))
            print(
                try await source(
                    list: arguments[1], socket: arguments[2], record: record, card: arguments[4], timeout: timeout,
                    observer)
            )
        case ("session-destination", 4):
            let record = try SessionDecisionRecord(directory: URL(fileURLWithPath: arguments[3]))
            print(
                try await destination(
                    list: arguments[1], socket: arguments[2], record: record, timeout: timeout, observer))
        case ("stored-source", 4):
            print(
                try await storedSource(
                    directory: arguments[1], socket: arguments[2], card: arguments[3], timeout: timeout, observer))
        case ("stored-destination", 3):
            print(
                try await storedDestination(directory: arguments[1], socket: arguments[2], timeout: timeout, observer))
        case ("stored-open", 2):
            print(try storedOpen(directory: arguments[1]))
        case ("session-recover", 4):
            let record = try SessionDecisionRecord(directory: URL(fileURLWithPath: arguments[2]))
            print(try recover(list: arguments[1], record: record, asSource: arguments[3] == "source"))
        default:
            return false
        }
        return true
    }

    /// The source: drags `card` out of the list at `list` and serves the drag until it ends.
    static func source(
        list path: String, socket: String, record: SessionDecisionRecord, card: String, timeout: Duration,
        _ observer: @escaping @Sendable (RemoteSessionEvent) async -> Void
    ) async throws -> String {
        let stored = try StoredList.read(path)
        let list = TransferList(stored.cards.map(\.model))
        let session = try list.beginDrag([card])
        let publication = try DragSessionPublication(
            publishing: session, atPath: socket, decisions: record, timeout: timeout, observer: observer)
        let operation = await publication.ended()
        publication.close()
        if operation == .move {
            try StoredList(cards: list.elements.map(StoredCard.init), pending: stored.pending).write(path)
        }
        return "source: \(operation); [\(list.elements.map(\.name).joined(separator: " "))]"
    }

    /// The destination: drops the published drag at the top of the list at `list`.
    static func destination(
        list path: String, socket: String, record: SessionDecisionRecord, timeout: Duration,
        _ observer: @escaping @Sendable (RemoteSessionEvent) async -> Void
    ) async throws -> String {
        let remote = try await RemoteDragSession.connect(toPath: socket, timeout: timeout, observer: observer)
        let result = try await remote.drop(DropProposal(operation: .move, intent: .insertAtIndex(0)), decisions: record)
        {
            drop, _ in
            let cards = try await drop.loadObjects(ofClass: Model.self)
            // Stored first, marked pending: if this process dies before the decision, recovery drops them.
            var stored = try StoredList.read(path)
            stored.cards.insert(contentsOf: cards.map(StoredCard.init), at: 0)
            stored.pending[remote.id.rawValue] = cards.map(\.name)
            try stored.write(path)
        }
        var stored = try StoredList.read(path)
        stored.pending[remote.id.rawValue] = nil
        try stored.write(path)
        return "destination: \(result.operation); [\(stored.names.joined(separator: " "))]"
    }

    /// Settles the list at `list` after a crash, by the record.
    static func recover(list path: String, record: SessionDecisionRecord, asSource: Bool) throws -> String {
        var stored = try StoredList.read(path)
        if asSource {
            let moved = Set(try record.decisions().filter { $0.outcome == .committed }.flatMap(\.items))
            stored.cards.removeAll { moved.contains($0.name) }
        } else {
            for (session, names) in stored.pending {
                let decision = try record.resolve(
                    DragSession.ID(rawValue: session), items: names.map { TransferItemID($0) })
                if decision.outcome == .aborted {
                    stored.cards.removeAll { names.contains($0.name) }
                }
                stored.pending[session] = nil
            }
        }
        try stored.write(path)
        return "\(asSource ? "source" : "destination") recovered: [\(stored.names.joined(separator: " "))]"
    }
}
