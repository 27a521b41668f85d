import Testing
import TransferKitTestSupport

@testable import UniformTypes

/// The catalog answers conformance from a structure linear in the number of types (a forest of first parents
/// with skip pointers, and a small cover per type, searched when the cover would be large). These tests compare
/// its answers, through the public API, with the transitive closure computed here by brute force, on graphs
/// made to reach every part of it: deep chains, many parents, covers past their limit, types added in batches
/// and one at a time.
@Suite("Conformance on large and unusual graphs", .timeLimit(.minutes(5)))
struct ConformanceStructureTests {
    /// A graph of `parents.count` types named `com.example.graph.<prefix>.<n>`; type n's parents are earlier
    /// types, or `public.data` when it has none.
    private struct Graph {
        let prefix: String
        let parents: [[Int]]

        func type(_ number: Int) -> UniformType? {
            UniformType("com.example.graph.\(prefix).\(number)")
        }

        func declarations() throws -> [UniformTypeDeclaration] {
            try parents.indices.map { number in
                let conformsTo = try parents[number].map { try #require(type($0)) }
                return UniformTypeDeclaration(
                    identifier: try #require(type(number)), conformsTo: conformsTo.isEmpty ? [.data] : conformsTo)
            }
        }

        /// Each type's ancestors (itself included), by brute force: quadratic, for small graphs only.
        func closures() -> [Set<Int>] {
            var result: [Set<Int>] = []
            for number in parents.indices {
                var closure: Set<Int> = [number]
                for parent in parents[number] {
                    closure.formUnion(result[parent])
                }
                result.append(closure)
            }
            return result
        }
    }

    /// Checks every pair of `graph`'s types, or `samples` random pairs when given, and a few supertype sets,
    /// against `closures`, each type's ancestors with itself (by default computed by brute force).
    private func expectAgreement(
        _ catalog: TypeCatalog, _ graph: Graph, samples: Int? = nil, seed: UInt64 = 1,
        closures given: [Set<Int>]? = nil
    ) throws {
        let closures = given ?? graph.closures()
        let types = try graph.parents.indices.map { try #require(graph.type($0)) }
        var pairs: [(Int, Int)] = []
        if let samples {
            var generator = SplitMix64(state: seed)
            pairs = (0..<samples).map { _ in
                (Int.random(in: types.indices, using: &generator), Int.random(in: types.indices, using: &generator))
            }
        } else {
            pairs = types.indices.flatMap { a in types.indices.map { b in (a, b) } }
        }
        var disagreements: [String] = []
        for (a, b) in pairs where catalog.conforms(types[a], to: types[b]) != closures[a].contains(b) {
            disagreements.append("\(a) → \(b): expected \(closures[a].contains(b))")
        }
        #expect(disagreements.isEmpty, "\(graph.prefix): \(disagreements.prefix(10))")
        for number in stride(from: types.count - 1, through: 0, by: -max(1, types.count / 7)) {
            var expected = Set(closures[number].map { types[$0] })
            expected.remove(types[number])
            expected.formUnion([.data, .item])
            #expect(catalog.supertypes(of: types[number]) == expected)
            #expect(catalog.conforms(types[number], to: .item))
        }
    }

    @Test("random graphs of 250 types, registered at once (every pair) and one type at a time (sampled)")
    func randomGraphs() throws {
        for seed in UInt64(1)...4 {
            var generator = SplitMix64(state: seed)
            // Parents are drawn from recent types, so chains grow deep and branches merge.
            let parents = (0..<250).map { number -> [Int] in
                guard number > 0 else { return [] }
                let count = Int.random(in: 0...(seed % 2 == 0 ? 4 : 2), using: &generator)
                let window = max(1, min(number, 40))
                return Array(Set((0..<count).map { _ in number - Int.random(in: 1...window, using: &generator) }))
            }
            let graph = Graph(prefix: "random\(seed)", parents: parents)
            let whole = TypeCatalog(includingSystemTypes: true)
            try whole.register(graph.declarations(), as: .exported)
            try expectAgreement(whole, graph)

            let stepwise = TypeCatalog(includingSystemTypes: true)
            for declaration in try graph.declarations() {
                try stepwise.register([declaration], as: .exported)
            }
            try expectAgreement(stepwise, graph, samples: 20_000, seed: seed)
        }
    }

    @Test("a chain of 20 000 types answers from both ends and the middle")
    func deepChain() throws {
        let graph = Graph(prefix: "chain", parents: (0..<20_000).map { $0 == 0 ? [] : [$0 - 1] })
        let catalog = TypeCatalog()
        try catalog.register(graph.declarations(), as: .exported)
        let last = try #require(graph.type(19_999))
        for number in [0, 1, 2, 63, 64, 1023, 1024, 9_999, 19_998, 19_999] {
            let type = try #require(graph.type(number))
            #expect(catalog.conforms(last, to: type))
            #expect(catalog.conforms(type, to: last) == (number == 19_999))
        }
        // Type n's ancestors are 0…n; only a few closures are built, for the supertype checks.
        var closures = [Set<Int>](repeating: [], count: 20_000)
        for number in stride(from: 19_999, through: 0, by: -(20_000 / 7)) {
            closures[number] = Set(0...number)
        }
        let types = try (0..<20_000).map { try #require(graph.type($0)) }
        var generator = SplitMix64(state: 7)
        var disagreements: [String] = []
        for _ in 0..<20_000 {
            let (a, b) = (Int.random(in: 0..<20_000, using: &generator), Int.random(in: 0..<20_000, using: &generator))
            if catalog.conforms(types[a], to: types[b]) != (b <= a) {
                disagreements.append("\(a) → \(b)")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
        try expectAgreement(catalog, graph, samples: 0, closures: closures)
    }

    @Test("types whose covers pass the limit are answered by search, correctly")
    func oversizedCovers() throws {
        // A chain where each link also conforms to a type of its own: type 2k+1's closure is the whole chain so
        // far plus k side types, no two on one line of first parents, so covers grow by one per link.
        var parents: [[Int]] = [[]]
        for link in 1..<150 {
            parents.append([])  // the side type 2k-1
            parents.append([2 * (link - 1), 2 * link - 1])  // the next link: the previous link and the side type
        }
        let graph = Graph(prefix: "covers", parents: parents)
        let whole = TypeCatalog()
        try whole.register(graph.declarations(), as: .exported)
        try expectAgreement(whole, graph)
        // The cover of link k holds k + 1 types; from link 32 on it passes the limit of 32 and is not stored.
        #expect(whole.snapshot.searchedTypeCount == 118)

        // The same links built one at a time, and a diamond below a searched type.
        var extended = parents
        let top = parents.count - 1
        extended.append([top])
        extended.append([top])
        extended.append([extended.count - 1, extended.count - 2, 1])
        let stepwiseGraph = Graph(prefix: "covers-stepwise", parents: extended)
        let stepwise = TypeCatalog()
        for declaration in try stepwiseGraph.declarations() {
            try stepwise.register([declaration], as: .exported)
        }
        try expectAgreement(stepwise, stepwiseGraph, samples: 30_000)
        #expect(stepwise.snapshot.searchedTypeCount == 118 + 3)
    }
}
