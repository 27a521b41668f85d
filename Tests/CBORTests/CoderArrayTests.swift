import CBOR
import Foundation
import Testing

/// Arrays whose elements are records, arrays or primitives outside the coder's list of primitive arrays: read in
/// one loop rather than through `Array`'s own `init(from:)`, with the same results, errors and limits.
@Suite("CBORDecoder arrays of records", .timeLimit(.minutes(5)))
struct CoderArrayTests {
    private let points = [Point(x: 1, y: 0.5), Point(x: -7, y: 1e300), Point(x: 0, y: -0.0)]

    @Test("arrays of records, of arrays, of optionals and of small integers round-trip")
    func roundTrips() throws {
        try testRoundTrip(of: points)
        try testRoundTrip(of: [points, [], [points[1]]])
        try testRoundTrip(of: [Point?.some(points[0]), nil, points[2]])
        try testRoundTrip(of: [UInt16(0), 65535, 24])
        try testRoundTrip(of: [[UInt16]]([[1, 2], []]))
        try testRoundTrip(of: [Shape.circle(radius: 2), .empty, .rectangle(width: 3, height: 4)])
        try testRoundTrip(of: [Point]())
        try testRoundTrip(of: ["a": points])
        // The same record type alone, then as elements, then alone again: nothing is remembered wrongly.
        try testRoundTrip(of: points[0])
        try testRoundTrip(of: points)
        try testRoundTrip(of: points[1])
    }

    @Test("an element that does not decode names its index and key in the coding path")
    func elementError() throws {
        // [{"x": 1, "y": 0.5}, {"x": "a", "y": 1.0}]
        let input = bytes("82 a2 6178 01 6179 f93800 a2 6178 6161 6179 f93c00")
        let failure = try #require(decodingFailure([Point].self, input))
        #expect(failure.kind == "typeMismatch")
        #expect(failure.path == ["1", "x"])
    }

    @Test("after an item fails, the same decoder reads the next input with the right paths")
    func reuseAfterFailure() throws {
        let decoder = CBORDecoder()
        let failing = bytes("82 a2 6178 01 6179 f93800 a2 6178 6161 6179 f93c00")
        #expect(decodingFailure([Point].self, failing, decoder: decoder)?.path == ["1", "x"])
        #expect(try decoder.decode([Point].self, from: CBOREncoder().encodedBytes(points)) == points)
        #expect(decodingFailure([[Point]].self, bytes("81") + failing, decoder: decoder)?.path == ["0", "1", "x"])
    }

    @Test("an array of records that hold nothing keeps its count")
    func emptyRecords() throws {
        try testRoundTrip(of: [Nothing(), Nothing(), Nothing()], expectedHex: "83 a0 a0 a0")
        #expect(try CBORDecoder().decode([Nothing].self, from: bytes("82 a0 a0")).count == 2)
    }

    @Test("a primitive element of the wrong type names its index")
    func primitiveElementError() throws {
        // [1, "a"] as [UInt16]
        let failure = try #require(decodingFailure([UInt16].self, bytes("82 01 6161")))
        #expect(failure.kind == "typeMismatch")
        #expect(failure.path == ["1"])
        // [1, 70000]: out of range.
        let range = try #require(decodingFailure([UInt16].self, bytes("82 01 1a00011170")))
        #expect(range.kind == "dataCorrupted")
        #expect(range.path == ["1"])
    }

    @Test("not an array, too many items, or items missing: each is its own error")
    func malformed() throws {
        #expect(decodingFailure([Point].self, bytes("a0"))?.kind == "typeMismatch")
        // Declares 3 records but holds 1.
        #expect(decodingFailure([Point].self, bytes("83 a2 6178 01 6179 f93800"))?.kind == "dataCorrupted")
        var decoder = CBORDecoder()
        decoder.limits.maxCollectionCount = 2
        let three = try CBOREncoder().encodedBytes(points)
        #expect(decodingFailure([Point].self, three, decoder: decoder)?.kind == "dataCorrupted")
    }

    @Test("arrays nested past the depth limit are rejected")
    func depth() throws {
        var decoder = CBORDecoder()
        decoder.limits.maxNestingDepth = 3
        let nested: [[[Point]]] = [[[Point(x: 1, y: 2)]]]
        let input = try CBOREncoder().encodedBytes(nested)
        #expect(decodingFailure([[[Point]]].self, input, decoder: decoder)?.kind == "dataCorrupted")
        decoder.limits.maxNestingDepth = 4
        #expect(try decoder.decode([[[Point]]].self, from: input) == nested)
        // The records themselves one level past the limit: the first one is named.
        let flat = try CBOREncoder().encodedBytes(points)
        decoder.limits.maxNestingDepth = 1
        let failure = try #require(decodingFailure([Point].self, flat, decoder: decoder))
        #expect(failure.kind == "dataCorrupted")
        #expect(failure.path == ["0"])
        #expect(failure.message.contains("nested more than 1 levels deep"))
        decoder.limits.maxNestingDepth = 2
        #expect(try decoder.decode([Point].self, from: flat) == points)
    }

    @Test("a record that keeps its keyed container keeps its own: the next records get other ones")
    func keptContainers() throws {
        let input = try CBOREncoder().encode(Shelf(items: ["first", "second", "third"]))
        let kept = try CBORDecoder().decode(KeptContainers.self, from: input)
        #expect(kept.names == ["first", "second", "third"])
        // Had a later record reopened a kept container, the container would show that record's path.
        #expect(kept.containerPaths == [["items", "0"], ["items", "1"], ["items", "2"]])
        // Once its record is decoded, a kept container reads nothing (as documented), not a later record's map.
        #expect(kept.reread == [nil, nil, nil])
    }

    @Test("a record's keyed container read while the next record decodes finds nothing, not that record's map")
    func containerReadBySibling() throws {
        let input = try CBOREncoder().encode([Named(name: "first"), Named(name: "second"), Named(name: "third")])
        let handoff = Handoff()
        var decoder = CBORDecoder()
        decoder.userInfo[try #require(Handoff.key)] = handoff
        let records = try decoder.decode([Peeker].self, from: input)
        #expect(records.map(\.name) == ["first", "second", "third"])
        // Each later record walked its map where the one before had walked its own.
        #expect(handoff.readByNext == [nil, nil])
        #expect(handoff.keysSeenByNext == [[], []])
        #expect(handoff.containedByNext == [false, false])
    }

    @Test("a large map's keyed container kept past the decode lists no keys")
    func largeContainerKeptPastDecode() throws {
        // More keys than the decoder keeps room for between decodes.
        let map = Dictionary(uniqueKeysWithValues: (0..<2_000).map { ("key \($0)", $0) })
        let kept = try CBORDecoder().decode(KeepsCustomKeys.self, from: try CBOREncoder().encode(map))
        #expect(kept.keyCount == 2_000)
        #expect(kept.container.allKeys.isEmpty)
        #expect(!kept.container.contains(CustomKey(stringValue: "key 7")))
    }

    @Test("with a key strategy, a keyed container kept past the decode reads nothing")
    func convertedContainerKeptPastDecode() throws {
        var decoder = CBORDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let kept = try decoder.decode(Keeper.self, from: try CBOREncoder().encode(Named(name: "kept")))
        #expect(kept.name == "kept")
        let error = try #require(throws: DecodingError.self) {
            try kept.container.decode(String.self, forKey: .name)
        }
        // Its values would be read from the input, which the decoder no longer holds.
        #expect(describe(error).kind == "keyNotFound")
        #expect(!kept.container.contains(.name))
        #expect(kept.container.allKeys.isEmpty)
    }

    @Test("each record's keyed container has the record's own coding path")
    func containerPaths() throws {
        let input = try CBOREncoder().encode(Shelf(items: ["a", "b", "c"]))
        let probe = try CBORDecoder().decode(ContainerPathProbe.self, from: input)
        #expect(probe.paths == [["items", "0"], ["items", "1"], ["items", "2"]])
        #expect(probe.names == ["a", "b", "c"])
    }

    @Test("records that open two keyed containers, of one key type or of two, read each map whole")
    func twoContainers() throws {
        let records = [Named(name: "x"), Named(name: "y"), Named(name: "z")]
        let input = try CBOREncoder().encode(records)
        let decoded = try CBORDecoder().decode([TwoContainers].self, from: input)
        #expect(decoded.map(\.first) == ["x", "y", "z"])
        #expect(decoded.map(\.second) == ["x", "y", "z"])
        #expect(decoded.map(\.other) == [nil, nil, nil])
    }

    @Test("a record missing a key after records that decoded names its index and the key")
    func missingKeyAfterRecords() throws {
        // [{"x": 1, "y": 0.5}, {"x": 2, "y": 0.5}, {"x": 3}]
        let input = bytes("83 a2 6178 01 6179 f93800 a2 6178 02 6179 f93800 a1 6178 03")
        let failure = try #require(decodingFailure([Point].self, input))
        #expect(failure.kind == "keyNotFound")
        #expect(failure.path == ["2", "y"])
        // The same decoder then reads a whole array again.
        let decoder = CBORDecoder()
        _ = decodingFailure([Point].self, input, decoder: decoder)
        #expect(try decoder.decode([Point].self, from: CBOREncoder().encodedBytes(points)) == points)
    }

    @Test("an item that is not a map, after records that reused one container, names its index")
    func notAMapAfterRecords() throws {
        // [{"x": 1, "y": 0.5}, {"x": 2, "y": 0.5}, 5]
        let input = bytes("83 a2 6178 01 6179 f93800 a2 6178 02 6179 f93800 05")
        let failure = try #require(decodingFailure([Point].self, input))
        #expect(failure.kind == "typeMismatch")
        #expect(failure.path == ["2"])
        #expect(failure.message.contains("expected a map"))
    }

    @Test(
        "Every value sees the coding path Foundation's JSONDecoder gives it: items of arrays, of arrays of arrays, in unkeyed containers, under keys"
    )
    func codingPaths() throws {
        let leaf = PathProbe.Leaf()
        let value = PathProbe(
            children: [PathProbe(children: [], pair: [], leaf: leaf), PathProbe(children: [], pair: [[]], leaf: nil)],
            pair: [
                [PathProbe(children: [], pair: [], leaf: leaf)], [], [PathProbe(children: [], pair: [], leaf: nil)],
            ],
            leaf: leaf, manual: [PathProbe(children: [], pair: [], leaf: leaf)])
        let cbor = try CBORDecoder().decode(PathProbe.self, from: CBOREncoder().encode(value))
        let json = try JSONDecoder().decode(PathProbe.self, from: JSONEncoder().encode(value))
        #expect(cbor == json)
        #expect(cbor.pair[2][0].path == ["pair", "#2", "#0"], "an item of an array of arrays")
        #expect(cbor.manual[0].leaf?.path == ["manual", "#0", "leaf"], "a key under an item of an unkeyed container")
    }
}

/// A value that keeps the coding path its decoder showed it (not encoded), and nests itself in every shape of
/// container.
struct PathProbe: Codable, Equatable {
    /// A single value that keeps its coding path.
    struct Leaf: Codable, Equatable {
        var path: [String] = []

        init() {}

        init(from decoder: any Decoder) throws {
            path = PathProbe.names(decoder.codingPath)
            _ = try decoder.singleValueContainer().decode(String.self)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode("leaf")
        }

        static func == (lhs: Leaf, rhs: Leaf) -> Bool { lhs.path == rhs.path }
    }

    var path: [String] = []
    var children: [PathProbe]
    var pair: [[PathProbe]]
    var leaf: Leaf?
    /// Decoded through a nested unkeyed container, item by item.
    var manual: [PathProbe] = []

    enum CodingKeys: String, CodingKey {
        case children, pair, leaf, manual
    }

    init(children: [PathProbe], pair: [[PathProbe]], leaf: Leaf?, manual: [PathProbe] = []) {
        self.children = children
        self.pair = pair
        self.leaf = leaf
        self.manual = manual
    }

    /// Keys as names, indices as `#n` (the two decoders name index keys differently).
    static func names(_ path: [any CodingKey]) -> [String] {
        path.map { key in key.intValue.map { "#\($0)" } ?? key.stringValue }
    }

    init(from decoder: any Decoder) throws {
        path = Self.names(decoder.codingPath)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        children = try container.decode([PathProbe].self, forKey: .children)
        pair = try container.decode([[PathProbe]].self, forKey: .pair)
        leaf = try container.decodeIfPresent(Leaf.self, forKey: .leaf)
        var items = try container.nestedUnkeyedContainer(forKey: .manual)
        while !items.isAtEnd {
            manual.append(try items.decode(PathProbe.self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(children, forKey: .children)
        try container.encode(pair, forKey: .pair)
        try container.encodeIfPresent(leaf, forKey: .leaf)
        try container.encode(manual, forKey: .manual)
    }
}

/// A record with no fields: an empty map.
private struct Nothing: Codable, Equatable {}

/// `{"name": …}`.
private struct Named: Codable, Equatable {
    var name: String
}

/// `{"items": [{"name": …}, …]}`.
private struct Shelf: Encodable {
    var items: [Named]

    init(items: [String]) {
        self.items = items.map(Named.init)
    }
}

/// A record that keeps its keyed container.
struct Keeper: Decodable {
    enum CodingKeys: String, CodingKey {
        case name
    }

    let name: String
    let container: KeyedDecodingContainer<CodingKeys>

    init(from decoder: any Decoder) throws {
        container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
    }
}

/// Where each `Peeker` leaves its keyed container for the next, and what the next found in it.
///
/// `@unchecked Sendable`: `CBORDecoder.userInfo` takes `Sendable` values; one decode on one thread uses it.
private final class Handoff: @unchecked Sendable {
    static let key = CodingUserInfoKey(rawValue: "handoff")

    var previous: KeyedDecodingContainer<Peeker.CodingKeys>?
    var readByNext: [String?] = []
    var keysSeenByNext: [[String]] = []
    var containedByNext: [Bool] = []
}

/// A record that reads the container of the record before it (from the `Handoff` in `userInfo`) after opening its
/// own, then leaves its own for the next.
private struct Peeker: Decodable {
    enum CodingKeys: String, CodingKey {
        case name
    }

    let name: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        guard let key = Handoff.key, let handoff = decoder.userInfo[key] as? Handoff else { return }
        if let previous = handoff.previous {
            handoff.readByNext.append(try? previous.decode(String.self, forKey: .name))
            handoff.keysSeenByNext.append(previous.allKeys.map(\.stringValue))
            handoff.containedByNext.append(previous.contains(.name))
        }
        handoff.previous = container
    }
}

/// A map whose keyed container is kept past the decode.
private struct KeepsCustomKeys: Decodable {
    let container: KeyedDecodingContainer<CustomKey>
    let keyCount: Int

    init(from decoder: any Decoder) throws {
        container = try decoder.container(keyedBy: CustomKey.self)
        keyCount = container.allKeys.count
    }
}

/// Decodes a `Shelf` of `Keeper`s, then reads each keeper's kept container again while the input is still there.
private struct KeptContainers: Decodable {
    enum CodingKeys: String, CodingKey {
        case items
    }

    let names: [String]
    let reread: [String?]
    let containerPaths: [[String]]

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let keepers = try container.decode([Keeper].self, forKey: .items)
        names = keepers.map(\.name)
        reread = keepers.map { try? $0.container.decode(String.self, forKey: .name) }
        containerPaths = keepers.map { keeper in
            keeper.container.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
        }
    }
}

/// A record that notes its keyed container's coding path.
private struct PathNoting: Decodable {
    enum CodingKeys: String, CodingKey {
        case name
    }

    let name: String
    let path: [String]

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        path = container.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
        name = try container.decode(String.self, forKey: .name)
    }
}

/// A `Shelf` of `PathNoting` records.
private struct ContainerPathProbe: Decodable {
    enum CodingKeys: String, CodingKey {
        case items
    }

    let paths: [[String]]
    let names: [String]

    init(from decoder: any Decoder) throws {
        let items = try decoder.container(keyedBy: CodingKeys.self).decode([PathNoting].self, forKey: .items)
        paths = items.map(\.path)
        names = items.map(\.name)
    }
}

/// A record that opens its map three times: twice with one key type, once with another.
private struct TwoContainers: Decodable {
    enum CodingKeys: String, CodingKey {
        case name
    }

    enum OtherKeys: String, CodingKey {
        case other
    }

    let first: String
    let second: String
    let other: String?

    init(from decoder: any Decoder) throws {
        let one = try decoder.container(keyedBy: CodingKeys.self)
        let others = try decoder.container(keyedBy: OtherKeys.self)
        let two = try decoder.container(keyedBy: CodingKeys.self)
        second = try two.decode(String.self, forKey: .name)
        other = try others.decodeIfPresent(String.self, forKey: .other)
        first = try one.decode(String.self, forKey: .name)
    }
}
