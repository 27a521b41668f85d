import Foundation
import TransferKit
import UniformTypes

extension UniformType {
    /// A whole shelf, its covers in order, as JSON.
    static let bookShelf = UniformType(exportedAs: "com.example.book-shelf", conformingTo: .json)
}

/// The covers on the home screen, in display order; every cover's ``BookCover/order`` equals its index.
///
/// Moves follow the seeds' collection-view drop: remove the cover at the source index (the ones after it move up
/// one), insert it at the destination index, then renumber.
struct Shelf: TransferCodable, Equatable, CustomStringConvertible {
    private(set) var covers: [BookCover]

    /// A shelf with `covers` in the given order (their `order` fields are renumbered).
    init(_ covers: [BookCover]) {
        self.covers = covers
        renumber()
    }

    static var contentType: UniformType { .bookShelf }

    /// The titles in order, `0 Demian · 1 Almond · …`.
    var description: String {
        covers.map { "\($0.order) \($0.title)" }.joined(separator: " · ")
    }

    /// Moves the cover at `source` to `destination`, as a drop with `.insertAtDestinationIndexPath` does.
    ///
    /// A destination past the end means "at the end" (the seeds use the last index when the drop has none).
    /// - Returns: `false`, changing nothing, when `source` is not an index of the shelf.
    @discardableResult
    mutating func moveItem(at source: Int, to destination: Int) -> Bool {
        guard covers.indices.contains(source) else { return false }
        let cover = covers.remove(at: source)
        covers.insert(cover, at: min(max(destination, 0), covers.count))
        renumber()
        return true
    }

    /// Moves a cover within the covers of one category (seed 002's category tabs): the indices count only that
    /// category's covers, and the move keeps the relative order of every other cover, so the "All" tab and the
    /// category tab always agree.
    /// - Returns: `false`, changing nothing, when `source` is not an index within the category.
    @discardableResult
    mutating func moveItem(at source: Int, to destination: Int, inCategory category: String) -> Bool {
        let positions = covers.indices.filter { covers[$0].category == category }
        guard positions.indices.contains(source) else { return false }
        let target = positions[min(max(destination, 0), positions.count - 1)]
        return moveItem(at: positions[source], to: target)
    }

    /// Inserts a cover dropped from elsewhere at `index` (clamped to the shelf).
    mutating func insert(_ cover: BookCover, at index: Int) {
        covers.insert(cover, at: min(max(index, 0), covers.count))
        renumber()
    }

    private mutating func renumber() {
        for index in covers.indices {
            covers[index].order = index
        }
    }

    /// The shelf the example starts with.
    static let sample = Shelf([
        BookCover(title: "Demian", author: "Hermann Hesse", category: "friends", order: 0),
        BookCover(title: "The Little Prince", author: "Antoine de Saint-Exupéry", category: "family", order: 0),
        BookCover(title: "Norwegian Wood", author: "Haruki Murakami", category: "friends", order: 0),
        BookCover(title: "Almond", author: "Sohn Won-pyung", category: "family", order: 0),
    ])
}
