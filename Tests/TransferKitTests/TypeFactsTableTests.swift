import Synchronization
import Testing
import UniformTypes

@testable import TransferKit

/// The lock-free table of per-type facts: one object per type, made once and kept through the table's growth, the
/// same object for every thread that asks, even when several make it at once.
@Suite("Type facts table", .timeLimit(.minutes(5)))
struct TypeFactsTableTests {
    final class Facts: Sendable {
        let name: String
        init(_ name: String) { self.name = name }
    }

    /// `count` distinct types: `Int?`, `Int??`, `Int???`, …
    static func distinctTypes(_ count: Int) -> [Any.Type] {
        func nest<T>(_ type: T.Type, _ remaining: Int, into types: inout [Any.Type]) {
            types.append(type)
            if remaining > 1 {
                nest(Optional<T>.self, remaining - 1, into: &types)
            }
        }
        var types: [Any.Type] = []
        nest(Int.self, count, into: &types)
        return types
    }

    private static func facts(_ address: UnsafeRawPointer) -> Facts {
        Unmanaged<Facts>.fromOpaque(address).takeUnretainedValue()
    }

    @Test("facts are made once per type and found again after the table has grown many times")
    func madeOncePerTypeThroughGrowth() {
        let table = TypeFactsTable(initialCapacity: 4)
        let types = Self.distinctTypes(300)
        var made = 0
        let first = types.map { type in
            table.address(for: type) {
                made += 1
                return Facts("\(type)")
            }
        }
        #expect(made == types.count)
        for (type, address) in zip(types, first) {
            let again = table.address(for: type) {
                made += 1
                return Facts("again")
            }
            #expect(again == address)
            #expect(Self.facts(again).name == "\(type)")
        }
        #expect(made == types.count, "no type's facts were made twice")
    }

    @Test("make may use the table for another type")
    func makeMayUseTheTable() {
        let table = TypeFactsTable()
        let outer = table.address(for: String.self) {
            let inner = table.address(for: Int.self) { Facts("inner") }
            return Facts("outer of \(Self.facts(inner).name)")
        }
        #expect(Self.facts(outer).name == "outer of inner")
        #expect(Self.facts(table.address(for: Int.self) { Facts("not kept") }).name == "inner")
    }

    @Test("threads that race to make a type's facts all get the first stored facts")
    func racingMakersAgree() async {
        let table = TypeFactsTable(initialCapacity: 4)
        let results = await withTaskGroup(of: [UInt].self) { group in
            for task in 0..<8 {
                group.addTask {
                    Self.distinctTypes(64).map { type in
                        UInt(bitPattern: table.address(for: type) { Facts("task \(task)") })
                    }
                }
            }
            var all: [[UInt]] = []
            for await result in group {
                all.append(result)
            }
            return all
        }
        for result in results {
            #expect(result == results[0])
        }
    }

    @Test("TransferCodable facts: the content type is read once and the coding round-trips")
    func codableFacts() throws {
        let card = FactsCard(title: "Luke")
        let data = try card.transferEncodedData()
        #expect(try FactsCard(transferEncodedData: data) == card)
        #expect(FactsCard.writableTypes.map(\.identifier) == ["com.example.facts-card"])
        #expect(FactsCard.readableTypes.map(\.identifier) == ["com.example.facts-card"])
        #expect(FactsCard.contentTypeReads.load(ordering: .relaxed) == 1)
    }
}

/// A model that counts how often its content type is read.
private struct FactsCard: TransferCodable, Equatable {
    var title: String

    static let contentTypeReads = Atomic<Int>(0)

    static var contentType: UniformType {
        contentTypeReads.add(1, ordering: .relaxed)
        return UniformType(exportedAs: "com.example.facts-card", conformingTo: .json)
    }
}
