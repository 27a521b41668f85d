import Foundation
import TransferKit
import TransferSessions
import UniformTypes

/// Reorders book covers by drag and drop (seeds 002 and 003) and serializes the new order.
///
/// - `swift run BookShelf` prints each step.
/// - `swift run BookShelf --write-archive DIR` writes `book-shelf.transferkit` and `book-shelf.json`.
@main
enum BookShelfExample {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            switch (arguments.first, arguments.count) {
            case (nil, _):
                try await demonstrate()
            case ("--write-archive", 2):
                try await writeArchives(to: URL(fileURLWithPath: arguments[1], isDirectory: true))
            default:
                print("usage: BookShelf [--write-archive DIR]")
                exit(2)
            }
        } catch {
            print("BookShelf: error: \(error)")
            exit(1)
        }
    }

    /// The shelf after the example's moves: "Almond" dragged from the end to the second place.
    static func reorderedShelf() -> Shelf {
        var shelf = Shelf.sample
        shelf.moveItem(at: 3, to: 1)
        return shelf
    }

    /// The reordered shelf as an archive: the whole shelf first, then one item per cover in its new order.
    static func makeArchive() async throws -> TransferArchive {
        let shelf = reorderedShelf()
        let shelfProvider = TransferProvider(object: shelf)
        shelfProvider.suggestedName = "shelf.json"
        shelfProvider.metadata = ["count": .integer(Int64(shelf.covers.count))]
        let coverProviders = shelf.covers.map { cover in
            let provider = TransferProvider(object: cover)
            provider.metadata = ["order": .integer(Int64(cover.order))]
            return provider
        }
        return try await TransferArchive(providers: [shelfProvider] + coverProviders)
    }

    /// Writes the archive in both forms; the bytes are the same on every run.
    static func writeArchives(to directory: URL) async throws {
        let archive = try await makeArchive()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for format in TransferArchiveFormat.allCases {
            let url = directory.appendingPathComponent("book-shelf.\(format.pathExtension)")
            try archive.encoded(as: format).write(to: url)
            print("wrote \(url.path)")
        }
    }

    static func demonstrate() async throws {
        print("BookShelf: book covers with an order, reordered by drag and drop\n")
        var shelf = Shelf.sample
        print("Shelf: \(shelf)")

        print("1. Drag \"Almond\" (index 3): its provider offers three representations")
        let provider = TransferProvider(object: shelf.covers[3])
        for type in provider.registeredTypes {
            let data = try await provider.loadDataRepresentation(for: type)
            print("   \(type.identifier): \(data.count) bytes")
        }

        print("2. Drop it at index 1: remove at 3, insert at 1, renumber (the seeds' performDropWith)")
        shelf.moveItem(at: 3, to: 1)
        print("   Shelf: \(shelf)")

        print("3. In the \"friends\" tab, move its second cover to the front; the \"All\" order follows")
        shelf.moveItem(at: 1, to: 0, inCategory: "friends")
        print("   friends: \(shelf.covers.filter { $0.category == "friends" }.map(\.title).joined(separator: " · "))")
        print("   Shelf: \(shelf)")

        print("4. A title dropped from another app as plain text becomes a new cover at index 2")
        let dropped = TransferProvider(data: Data("Pachinko".utf8), type: .utf8PlainText)
        shelf.insert(try await dropped.loadObject(ofClass: BookCover.self), at: 2)
        print("   Shelf: \(shelf)")

        print("5. The new order, serialized as the shelf's own JSON type")
        let shelfProvider = TransferProvider(object: shelf)
        let json = try await shelfProvider.loadDataRepresentation(for: .bookShelf)
        let orders = shelf.covers.map { "\($0.title)=\($0.order)" }.joined(separator: ", ")
        print("   \(json.count) bytes of com.example.book-shelf; orders: \(orders)")
        let decoded = try await TransferProvider(data: json, type: .bookShelf).loadObject(ofClass: Shelf.self)
        print("   read back equal: \(decoded == shelf)")

        print("6. The archive of the reordered shelf (see --write-archive)")
        let archive = try await makeArchive()
        let sizes = try TransferArchiveFormat.allCases.map { "\(try archive.encoded(as: $0).count) bytes of \($0)" }
        print("   \(archive.items.count) items: \(sizes.joined(separator: ", "))")

        print("7. The same moves on TransferSessions")
        for line in try await sessionMoves() { print("   \(line)") }
    }

    /// Seeds 002, 003 and 004 on sessions: a category tab's moves mapped onto the whole shelf, the pinned
    /// "add" cell at the front of a list that keeps the covers' `order` itself, and the edit-mode reorder. Every
    /// index is UIKit's destination index, the cover's position after the move, as in the seeds.
    static func sessionMoves() async throws -> [String] {
        var lines: [String] = []
        func titles(_ covers: [BookCover]) -> String {
            covers.map { "\($0.order) \($0.title)" }.joined(separator: " · ")
        }

        // Seed 002: in the "friends" tab (Demian, Norwegian Wood), drag Norwegian Wood before Demian.
        var covers = Shelf.sample.covers
        let change = covers.moveElements(
            withIDs: ["Norwegian Wood"], toIndex: 0, inViewWhere: { $0.category == "friends" })
        covers.renumber(\.order)
        lines.append("friends tab, Norwegian Wood to the front: \(titles(covers)) (\(change.count) changes)")
        // Down in the "family" tab (The Little Prince, Almond): row 1 is below Almond, in the tab and in "All".
        covers.moveElements(withIDs: ["The Little Prince"], toIndex: 1, inViewWhere: { $0.category == "family" })
        covers.renumber(\.order)
        lines.append("family tab, The Little Prince to row 1: \(titles(covers))")

        // Seed 003: the first cell adds a book; it cannot be dragged and nothing may be dropped before it.
        let addCell = BookCover(title: "+ Add a book", author: "", category: "", order: 0)
        let shelf = TransferList(
            [addCell] + Shelf.sample.covers, isPinned: { $0.title == addCell.title }, renumbering: \.order)
        do {
            _ = try shelf.beginDrag([addCell.id])
        } catch {
            lines.append("drag the add cell: \(error.code)")
        }
        let almond = try shelf.beginDrag(["Almond"])
        lines.append("drop Almond before the add cell: \(shelf.proposal(for: almond, at: 0).operation)")
        _ = try await shelf.drop(almond, at: 1)
        lines.append("drop Almond after it, the list renumbering: \(titles(shelf.elements))")

        // Seed 004: edit mode's moveRowAt:to:, positions after the move.
        var editing = Shelf.sample.covers
        editing.moveRow(at: 0, to: 3)
        editing.renumber(\.order)
        lines.append("edit mode, row 0 to row 3: \(titles(editing))")
        return lines
    }
}
