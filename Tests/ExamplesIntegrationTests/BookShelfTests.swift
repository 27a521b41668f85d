import Foundation
import Testing
import TransferKit
import TransferKitTesting
import UniformTypes

@testable import BookShelf

@Suite("BookShelf", .timeLimit(.minutes(5)))
struct BookShelfTests {
    /// Titles of the sample shelf, by their first letter: D(emian), L(ittle Prince), N(orwegian Wood), A(lmond).
    static func letters(_ shelf: Shelf) -> String {
        String(shelf.covers.map { $0.title.first ?? "?" }).replacingOccurrences(of: "T", with: "L")
    }

    @Test(arguments: [
        (3, 1, "DALN"), (0, 3, "LNAD"), (1, 1, "DLNA"), (2, 0, "NDLA"), (0, 99, "LNAD"), (3, -5, "ADLN"),
    ])
    func moveRemovesAtTheSourceAndInsertsAtTheDestination(source: Int, destination: Int, expected: String) {
        var shelf = Shelf.sample
        let moved = shelf.moveItem(at: source, to: destination)
        #expect(moved)
        #expect(Self.letters(shelf) == expected)
        #expect(shelf.covers.map(\.order) == [0, 1, 2, 3])
    }

    @Test(arguments: [-1, 4])
    func moveFromOutsideTheShelfChangesNothing(source: Int) {
        var shelf = Shelf.sample
        let moved = shelf.moveItem(at: source, to: 0)
        #expect(!moved)
        #expect(shelf == Shelf.sample)
    }

    @Test func moveInACategoryKeepsTheOtherCoversInPlace() {
        var shelf = Shelf.sample  // friends: Demian (0), Norwegian Wood (2); family: Little Prince (1), Almond (3)
        let friendsMoved = shelf.moveItem(at: 1, to: 0, inCategory: "friends")
        #expect(friendsMoved && Self.letters(shelf) == "NDLA")
        let familyMoved = shelf.moveItem(at: 0, to: 1, inCategory: "family")
        #expect(familyMoved && Self.letters(shelf) == "NDAL")
        let outsideMoved = shelf.moveItem(at: 2, to: 0, inCategory: "family")
        #expect(!outsideMoved && Self.letters(shelf) == "NDAL")
    }

    @Test func coverAndShelfRoundTrip() async {
        var shelf = Shelf.sample
        shelf.moveItem(at: 3, to: 1)
        await assertRoundTrip(shelf)
        for cover in shelf.covers {
            await assertRoundTrip(cover)
        }
        await assertCrossProcessRoundTrip(shelf.covers[0])
    }

    @Test func coverIsOfferedInThreeRepresentations() async throws {
        let provider = TransferProvider(object: Shelf.sample.covers[0])
        #expect(provider.registeredTypes == [.bookCover, .xmlPropertyList, .utf8PlainText])
        let plist = try await provider.loadDataRepresentation(for: .propertyList)
        let decoded = try PropertyListDecoder().decode(BookCover.self, from: plist)
        #expect(decoded == Shelf.sample.covers[0])
        // Not .text: the JSON type conforms to public.text through public.json and comes first in fidelity order.
        let title = try await provider.loadDataRepresentation(for: .plainText)
        #expect(String(decoding: title, as: UTF8.self) == "Demian")
    }

    @Test func titleDroppedAsTextIsInsertedAndRenumbered() async throws {
        var shelf = Shelf.sample
        let dropped = TransferProvider(data: Data("Pachinko".utf8), type: .utf8PlainText)
        shelf.insert(try await dropped.loadObject(ofClass: BookCover.self), at: 2)
        #expect(shelf.covers.map(\.title)[2] == "Pachinko")
        #expect(shelf.covers.map(\.order) == [0, 1, 2, 3, 4])
    }

    @Test func damagedPropertyListIsADecodingFailure() async {
        let provider = TransferProvider(data: Data("<plist>".utf8), type: .xmlPropertyList)
        let error = await #expect(throws: TransferError.self) { try await provider.loadObject(ofClass: BookCover.self) }
        #expect(error?.code == .decodingFailed)
    }
}
