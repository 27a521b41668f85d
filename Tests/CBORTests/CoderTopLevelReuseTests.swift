import CBOR
import Foundation
import Synchronization
import Testing

/// One decode after another: each top-level value's keyed container is its own to keep, reads only its own map, and
/// no decode keeps the decoder it used alive once it has returned.
@Suite("CBORDecoder top-level values decoded in turn", .timeLimit(.minutes(5)))
struct CoderTopLevelReuseTests {
    @Test("a top-level value that keeps its keyed container keeps its own: later decodes of the type get others")
    func keptTopLevelContainer() throws {
        let decoder = CBORDecoder()
        let first = try decoder.decode(Keeper.self, from: try CBOREncoder().encode(Label(name: "first")))
        let second = try decoder.decode(Keeper.self, from: try CBOREncoder().encode(Label(name: "second")))
        let plain = try decoder.decode(Label.self, from: try CBOREncoder().encode(Label(name: "third")))
        // The first keyed container of a decode may be that of a value a wrapper decodes.
        let wrapped = try decoder.decode(Wrapper<Keeper>.self, from: try CBOREncoder().encode(Label(name: "4")))
        let fifth = try decoder.decode(Keeper.self, from: try CBOREncoder().encode(Label(name: "fifth")))
        #expect(
            [first.name, second.name, plain.name, wrapped.value.name, fifth.name] == [
                "first", "second", "third", "4", "fifth",
            ])
        for kept in [first, second, wrapped.value, fifth] {
            // Once its value is decoded, a kept container reads nothing (as documented), not a later value's map.
            #expect(!kept.container.contains(.name))
            #expect(kept.container.allKeys.isEmpty)
            let error = try #require(throws: DecodingError.self) {
                try kept.container.decode(String.self, forKey: .name)
            }
            #expect(describe(error).kind == "keyNotFound")
        }
    }

    @Test("values decoded in turn, of one type or of several, and after failures, each read their own map")
    func successiveValues() throws {
        let decoder = CBORDecoder()
        let encoder = CBOREncoder()
        for index in 0..<40 {
            let label = Label(name: "label \(index)")
            #expect(try decoder.decode(Label.self, from: try encoder.encode(label)) == label)
            let point = Point(x: index, y: Double(index) / 4)
            #expect(try decoder.decode(Point.self, from: try encoder.encode(point)) == point)
            #expect(try decoder.decode(Wrapper<Label>.self, from: try encoder.encode(label)).value == label)
            // The same key type, a map cut short, then one without the key.
            #expect(decodingFailure(Label.self, bytes("a1 64 6e616d65"))?.kind == "dataCorrupted")
            let missing = try #require(decodingFailure(Label.self, bytes("a1 61 78 01")))
            #expect(missing.kind == "keyNotFound")
            #expect(missing.path == ["name"])
            #expect(try decoder.decode(Label.self, from: try encoder.encode(label)) == label)
        }
    }

    @Test("values decoded on many threads at once each read their own input")
    func concurrentDecodes() async throws {
        let encoded = try (0..<8).map { try CBOREncoder().encode(Label(name: "thread \($0)")) }
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for (index, input) in encoded.enumerated() {
                group.addTask {
                    var wrong = 0
                    for _ in 0..<2_000 {
                        let label = try? CBORDecoder().decode(Label.self, from: input)
                        if label?.name != "thread \(index)" { wrong += 1 }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }

    @Test("a decoder kept past its decode reads nothing, and is freed once let go")
    func keptDecoder() throws {
        var kept: KeepsDecoder? = try CBORDecoder().decode(
            KeepsDecoder.self, from: try CBOREncoder().encode(Label(name: "kept")))
        #expect(kept?.name == "kept")
        let watcher = try WeakDecoder(#require(kept?.decoder))
        // The same key type at the depth of the decode's first container: the container waiting in the decoder is
        // asked for again, and its map is gone with the input.
        let error = try #require(throws: DecodingError.self) {
            _ = try kept?.decoder.singleValueContainer().decode(Relabel.self)
        }
        #expect(describe(error).kind == "dataCorrupted")
        #expect(watcher.isAlive)
        kept = nil
        #expect(!watcher.isAlive)
    }

    @Test("a decode does not keep its decoder alive once it returns, when another decode ran inside it")
    func decodersAreFreed() async throws {
        // The outer decode's decoder is taken from the spare slot; the inner decode, run from the outer value's
        // `init(from:)`, makes another and puts it back as the spare; the outer one is then one too many and must be
        // freed, with the keyed container it opened (without parking, all 40 stay alive).
        //
        // The slot is the process's, and other tests decode meanwhile: one may take the inner decoder from the slot
        // before the outer decode ends, and the outer one is then rightly kept as the spare (and taken again by the
        // next outer decode, so two values may share it), or it is in another test's decode at the moment this one
        // looks. So the check counts distinct decoders, and looks again for a while before it fails: at rest, only the
        // spare may be alive.
        let input = try CBOREncoder().encode(Label(name: "outer"))
        let observed = try (0..<40).map { _ in try CBORDecoder().decode(NestsADecode.self, from: input) }
        #expect(observed.allSatisfy { $0.name == "outer" && $0.inner == "inner" && $0.decoderWasAlive })
        var alive = Set(observed.compactMap(\.decoder.identity))
        for _ in 0..<200 where alive.count > 1 {
            try await Task.sleep(for: .milliseconds(10))
            alive = Set(observed.compactMap(\.decoder.identity))
        }
        #expect(alive.count <= 1)
    }
}

/// A value that keeps the decoder it was decoded from, and opens a keyed container of `Relabel`'s key type.
private struct KeepsDecoder: Decodable {
    enum CodingKeys: String, CodingKey {
        case name
    }

    let name: String
    let decoder: any Decoder

    init(from decoder: any Decoder) throws {
        self.decoder = decoder
        name = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .name)
    }
}

/// A value read with `KeepsDecoder`'s key type.
private struct Relabel: Decodable {
    let name: String

    init(from decoder: any Decoder) throws {
        name = try decoder.container(keyedBy: KeepsDecoder.CodingKeys.self).decode(String.self, forKey: .name)
    }
}

private struct Label: Codable, Equatable {
    var name: String
}

/// A value decoded through its single-value container as a `T`.
private struct Wrapper<T: Decodable>: Decodable {
    let value: T

    init(from decoder: any Decoder) throws {
        value = try decoder.singleValueContainer().decode(T.self)
    }
}

/// A weak reference to the decoder a value was decoded from.
private final class WeakDecoder: Sendable {
    private let reference: Mutex<WeakBox>

    init(_ decoder: any Decoder) {
        reference = Mutex(WeakBox(object: decoder as AnyObject))
    }

    var isAlive: Bool { reference.withLock { $0.object != nil } }

    /// The decoder's identity while it is alive, else `nil`.
    var identity: ObjectIdentifier? { reference.withLock { $0.object.map(ObjectIdentifier.init) } }

    private struct WeakBox: @unchecked Sendable {
        weak var object: AnyObject?
    }
}

/// A value whose `init(from:)` runs a second top-level decode before it reads its own map.
private struct NestsADecode: Decodable {
    enum CodingKeys: String, CodingKey {
        case name
    }

    let name: String
    let inner: String
    let decoder: WeakDecoder
    let decoderWasAlive: Bool

    init(from decoder: any Decoder) throws {
        self.decoder = WeakDecoder(decoder)
        // A decoder that is a class is alive while it decodes; one that is not would fail here, not pass below.
        decoderWasAlive = self.decoder.isAlive
        inner = try CBORDecoder().decode(Label.self, from: try CBOREncoder().encode(Label(name: "inner"))).name
        name = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .name)
    }
}
