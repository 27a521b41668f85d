import Foundation
import TransferSessions

/// Seed 000 between two processes with stored lists: the same move as ``TwoProcesses``' JSON files, with no code of
/// the example's own for pending marks, decisions or recovery. Opening the list is all; both processes find the
/// user's standard ``SessionDecisionRecord`` by themselves.
extension TwoProcesses {
    /// The source: drags `card` out of the list stored in `directory` (the sample cards when there is none yet) and
    /// serves the drag until it ends; prints what the source's table would animate.
    static func storedSource(
        directory: String, socket: String, card: String, timeout: Duration,
        _ observer: @escaping @Sendable (RemoteSessionEvent) async -> Void
    ) async throws -> String {
        let list = try TransferList(storedIn: URL(fileURLWithPath: directory), initialElements: Model.samples)
        let changes = list.changes()
        let session = try list.beginDrag([card])
        let publication = try DragSessionPublication(
            publishing: session, atPath: socket, timeout: timeout, observer: observer)
        let operation = await publication.ended()
        publication.close()
        var removed: [String] = []
        if operation == .move, let change = await changes.first(where: { _ in true }) {
            for case .remove(let offset, let card, _) in change.difference.removals {
                removed.append("\(card.name)@\(offset) (\(change.cause))")
            }
        }
        return "source: \(operation); [\(names(list))]; removed [\(removed.joined(separator: " "))]"
    }

    /// The destination: drops the published drag at the top of the list stored in `directory`.
    static func storedDestination(
        directory: String, socket: String, timeout: Duration,
        _ observer: @escaping @Sendable (RemoteSessionEvent) async -> Void
    ) async throws -> String {
        let list = try TransferList<Model>(storedIn: URL(fileURLWithPath: directory))
        let remote = try await RemoteDragSession.connect(toPath: socket, timeout: timeout, observer: observer)
        let result = try await list.drop(remote, at: 0)
        return "destination: \(result.operation); [\(names(list))]"
    }

    /// Opens the list stored in `directory`, which settles what a crash left in flight, and lists its cards.
    static func storedOpen(directory: String) throws -> String {
        "[\(names(try TransferList<Model>(storedIn: URL(fileURLWithPath: directory))))]"
    }

    private static func names(_ list: TransferList<Model>) -> String {
        list.elements.map(\.name).joined(separator: " ")
    }
}
