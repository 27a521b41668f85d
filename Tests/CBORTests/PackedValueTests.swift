import CBOR
import Testing
import TransferKitTestSupport

/// `CBORValue(decoding:)` returns a packed tree (arrays and maps that read their items from the decoded bytes); it
/// must be indistinguishable, through the public API, from the tree `CBORReader.readValue()` builds item by item.
@Suite("CBORValue: packed trees from CBORValue(decoding:)", .timeLimit(.minutes(5)))
struct PackedValueTests {
    /// The tree the reader builds item by item, with the trailing-bytes check `CBORValue(decoding:)` makes.
    static func built(
        _ input: [UInt8], limits: CBORReader.Limits = .default, deterministic: Bool = false
    ) -> Result<CBORValue, CBORError> {
        Result { () throws(CBORError) in
            var reader = CBORReader(bytes: input, limits: limits, requireDeterministic: deterministic)
            let value = try reader.readValue()
            guard try reader.isAtEnd() else {
                throw CBORError(code: .trailingBytes, message: "trailing", offset: reader.offset)
            }
            return value
        }
    }

    static func packed(
        _ input: [UInt8], limits: CBORReader.Limits = .default, deterministic: Bool = false
    ) -> Result<CBORValue, CBORError> {
        Result { () throws(CBORError) in
            try CBORValue(decoding: input, limits: limits, requireDeterministic: deterministic)
        }
    }

    /// Both ways agree: equal values (as `==`, hash, encoding and printed form), or the same error at the same offset.
    static func expectAgreement(
        _ input: [UInt8], limits: CBORReader.Limits = .default, deterministic: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        switch (
            built(input, limits: limits, deterministic: deterministic),
            packed(input, limits: limits, deterministic: deterministic)
        ) {
        case (.success(let built), .success(let packed)):
            #expect(packed == built, "\(hex(input))", sourceLocation: sourceLocation)
            #expect(packed.hashValue == built.hashValue, "\(hex(input))", sourceLocation: sourceLocation)
            #expect(String(describing: packed) == String(describing: built), sourceLocation: sourceLocation)
            #expect((try? packed.encoded()) == (try? built.encoded()), "\(hex(input))", sourceLocation: sourceLocation)
        case (.failure(let built), .failure(let packed)):
            #expect(packed.code == built.code, "\(hex(input))", sourceLocation: sourceLocation)
            #expect(packed.offset == built.offset, "\(hex(input))", sourceLocation: sourceLocation)
        case (let built, let packed):
            Issue.record(
                "\(hex(input)): the reader gives \(built), CBORValue(decoding:) \(packed)",
                sourceLocation: sourceLocation)
        }
    }

    @Test(
        "each shape reads back as the reader builds it",
        arguments: [
            "00", "20", "3b ffffffffffffffff", "f4", "f5", "f6", "f7", "f0", "f8 ff", "f9 3c00", "fa 47c35000",
            "fb 3ff199999999999a", "40", "60", "80", "a0", "43 010203", "64 49455446", "62 c3bc",
            "83 01 82 02 03 82 04 05", "a2 61 61 01 61 62 82 02 03", "c1 1a 514b67b0", "d8 20 a1 01 81 02",
            "c6 c7 c8 9f 01 ff", "9f ff", "bf ff", "9f 01 82 02 03 9f 04 05 ff ff", "bf 61 61 01 61 62 9f 02 03 ff ff",
            "5f 42 0102 43 030405 ff", "7f 65 7374726561 64 6d696e67 ff", "5f ff", "7f ff",
            "a1 5f 41 01 ff 7f 61 61 ff",
            "a2 82 01 02 61 61 a1 01 02 80", "82 9f 9f 9f ff ff ff bf bf bf ff 01 ff 02 ff",
            "d9 d9f7 83 c2 41 01 a1 f6 f7 9f c3 40 ff",
        ])
    func shapes(_ input: String) throws {
        Self.expectAgreement(bytes(input))
        let value = try CBORValue(decoding: bytes(input))
        // Reading the tree twice gives the same items (nothing is consumed by reading).
        #expect(value == (try CBORValue(decoding: bytes(input))))
    }

    @Test("what the reader rejects, CBORValue(decoding:) rejects with the same code at the same offset")
    func errors() {
        for group in appendixF {
            for example in group.examples {
                Self.expectAgreement(bytes(example))
            }
        }
        let tight = CBORReader.Limits(maxNestingDepth: 2, maxCollectionCount: 2, maxStringLength: 3)
        for example in [
            "83 01 02 03", "81 81 81 01", "64 61626364", "a3 01 01 02 02 03 03", "9f 01 02 03 ff",
            "7f 62 6162 62 6364 ff", "a2 01 01 01 02", "62 c3 28", "7f 61 c3 61 bc ff", "c1 c1 c1 01",
        ] {
            Self.expectAgreement(bytes(example), limits: tight)
            Self.expectAgreement(bytes(example))
        }
        // Deterministic mode: keys out of order, indefinite lengths, long heads.
        for example in ["a2 02 00 01 00", "9f ff", "18 01", "a2 61 62 00 61 61 00", "f9 3c00", "fa 3f800000"] {
            Self.expectAgreement(bytes(example), deterministic: true)
        }
    }

    @Test("a repeated map key is found whatever its kind and wherever it stands, both ways, at the repeat's offset")
    func duplicateKeys() throws {
        // Maps as keys: equal in any order, so the second is a repeat (at offset 7).
        let mapKeys = bytes("a2 a2 01 02 03 04 00 a2 03 04 01 02 00")
        #expect(decodingErrorCode(mapKeys) == .duplicateMapKey)
        #expect(Self.packed(mapKeys).failure?.offset == 7)
        Self.expectAgreement(mapKeys)
        // A collection key after scalar ones, and a scalar repeated after a collection key.
        Self.expectAgreement(bytes("a4 01 00 02 00 81 01 00 81 01 00"))
        Self.expectAgreement(bytes("a3 81 01 00 02 00 02 00"))
        // Around the 16 keys past which keys are hashed rather than compared: a repeat as the 16th, 17th, 18th key.
        for repeatAt in 15...17 {
            var map: [UInt8] = [0xb8, UInt8(repeatAt + 1)]
            for key in 0..<repeatAt { map += [UInt8(key), 0xf6] }
            map += [0x03, 0xf6]
            #expect(decodingErrorCode(map) == .duplicateMapKey, "repeat as key \(repeatAt + 1)")
            #expect(Self.packed(map).failure?.offset == 2 + 2 * repeatAt)
            Self.expectAgreement(map)
        }
    }

    @Test("random trees, written with and without indefinite lengths, read back equal, in both modes")
    func randomTrees() throws {
        var random = SplitMix64(state: 0x5eed_cb0e)
        for round in 0..<400 {
            let tree = RandomTree.make(depth: 4, using: &random)
            let deterministic = try tree.encoded()
            #expect(try CBORValue(decoding: deterministic, requireDeterministic: true) == tree, "round \(round)")
            Self.expectAgreement(deterministic, deterministic: true)
            let loose = RandomTree.looseEncoding(of: tree, using: &random)
            #expect(try CBORValue(decoding: loose) == tree, "round \(round): \(hex(loose))")
            Self.expectAgreement(loose)
            // Every cut of the loose encoding fails the same way both ways.
            if round % 20 == 0 {
                for cut in 0..<loose.count {
                    Self.expectAgreement(Array(loose[..<cut]))
                }
            }
        }
    }

    @Test("a packed array and map read like built ones: counts, indices, look-ups, order-free map equality")
    func collections() throws {
        let value = try CBORValue(decoding: bytes("a3 61 61 83 01 02 03 61 62 a1 01 02 61 63 d8 20 80"))
        let entries = try #require(value.mapEntries)
        #expect(entries.count == 3 && entries.indices == 0..<3)
        #expect(entries.map(\.key) == ["a", "b", "c"])
        let items = try #require(value["a"]?.arrayValue)
        #expect(Array(items) == [1, 2, 3] && items.reversed() == [3, 2, 1] && items.last == 3)
        #expect(value["a"]?[1] == 2 && value["a"]?[3] == nil && value["a"]?[-1] == nil)
        #expect(entries[.text("b")] == [1: 2] && entries[.text("z")] == nil)
        #expect(value["c"] == .tagged(32, []))
        // Maps compare without regard to order; arrays with it.
        let reordered: CBORValue = ["c": .tagged(32, []), "b": [1: 2], "a": [1, 2, 3]]
        #expect(value == reordered && value.hashValue == reordered.hashValue)
        #expect(value["a"] != [3, 2, 1])
        // A part outlives the tree it came from and the caller's bytes.
        var input: [UInt8]? = bytes("81 82 63 616263 44 01020304")
        let part = try CBORValue(decoding: input ?? [])[0]
        input = nil
        #expect(part == ["abc", .bytes([1, 2, 3, 4])])
    }

    @Test("a value keeps the Swift-array spellings: .array([...]), .map([...]) and literals")
    func spellings() {
        let items: [CBORValue] = [1, "two"]
        let pairs = [CBORValue.MapEntry(key: 1, value: "one")]
        #expect(CBORValue.array(items) == [1, "two"])
        #expect(CBORValue.map(pairs) == [1: "one"])
        #expect(CBORValue.array(CBORArray(items)).arrayValue.map(Array.init) == items)
        #expect(CBORArray() == [] && CBORMap() == [:] && CBORArray(items.lazy.map { $0 }) == CBORArray(items))
        #expect(String(describing: CBORMap()) == "[:]")
    }

    @Test("indexing a packed array or map out of range traps, as indexing a Swift array does")
    func outOfRange() async {
        await #expect(processExitsWith: .failure) {
            if case .array(let items) = try CBORValue(decoding: [0x81, 0x01]) {
                _ = items[1]
            }
        }
        await #expect(processExitsWith: .failure) {
            if case .map(let entries) = try CBORValue(decoding: [0xa1, 0x01, 0x02]) {
                _ = entries[-1]
            }
        }
    }
}

/// Random values of every kind, and encodings of them that use indefinite lengths where CBOR allows.
enum RandomTree {
    static let texts = ["", "a", "name", "é", "e\u{301}", "日本語テキスト", "a somewhat longer text string", "🙂"]

    static func make(depth: Int, using random: inout SplitMix64) -> CBORValue {
        let kind = Int.random(in: 0..<(depth > 0 ? 12 : 9), using: &random)
        switch kind {
        case 0:
            return .unsigned(
                UInt64.random(in: 0...UInt64.max, using: &random) >> UInt64.random(in: 0..<64, using: &random))
        case 1: return .negative(UInt64.random(in: 0...70_000, using: &random))
        case 2:
            return .bytes(
                (0..<Int.random(in: 0..<40, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
        case 3: return .text(texts[Int.random(in: 0..<texts.count, using: &random)])
        case 4:
            return [.null, .undefined, .bool(true), .bool(false), .simple(16), .simple(200)][
                Int.random(in: 0..<6, using: &random)]
        case 5:
            return .float(
                [0.0, -0.0, 1.5, 65504, 100_000.25, .infinity, .nan, 1e300][Int.random(in: 0..<8, using: &random)])
        case 6, 7, 8: return .unsigned(UInt64.random(in: 0..<30, using: &random))
        case 9:
            return .array(
                (0..<Int.random(in: 0..<6, using: &random)).map { _ in make(depth: depth - 1, using: &random) })
        case 10:
            let count = Int.random(in: 0..<6, using: &random)
            return .map(
                (0..<count).map { index in
                    let key: CBORValue = index % 2 == 0 ? .text("k\(index)") : .negative(UInt64(index))
                    return CBORValue.MapEntry(key: key, value: make(depth: depth - 1, using: &random))
                })
        default:
            return .tagged(UInt64.random(in: 0..<300, using: &random), make(depth: depth - 1, using: &random))
        }
    }

    /// `value`'s encoding with arrays, maps and strings in indefinite-length form at random (strings cut into
    /// chunks at scalar boundaries), map pairs in the value's own order.
    static func looseEncoding(of value: CBORValue, using random: inout SplitMix64) -> [UInt8] {
        let indefinite = Bool.random(using: &random)
        switch value {
        case .array(let items):
            var out = indefinite ? [UInt8(0x9f)] : head(4, UInt64(items.count))
            for item in items { out += looseEncoding(of: item, using: &random) }
            return indefinite ? out + [0xff] : out
        case .map(let entries):
            var out = indefinite ? [UInt8(0xbf)] : head(5, UInt64(entries.count))
            for entry in entries {
                out += looseEncoding(of: entry.key, using: &random) + looseEncoding(of: entry.value, using: &random)
            }
            return indefinite ? out + [0xff] : out
        case .tagged(let tag, let content):
            return head(6, tag) + looseEncoding(of: content, using: &random)
        case .bytes(let payload) where indefinite:
            let cut = Int.random(in: 0...payload.count, using: &random)
            return [0x5f] + head(2, UInt64(cut)) + payload[..<cut] + head(2, UInt64(payload.count - cut))
                + payload[cut...] + [0xff]
        case .text(let text) where indefinite:
            var out: [UInt8] = [0x7f]
            for scalar in text.unicodeScalars {
                let chunk = Array(String(scalar).utf8)
                out += head(3, UInt64(chunk.count)) + chunk
            }
            return out + [0xff]
        default:
            return (try? value.encoded()) ?? []
        }
    }

    static func head(_ majorType: UInt8, _ argument: UInt64) -> [UInt8] {
        var writer = CBORWriter()
        writer.writeHead(majorType: CBORMajorType(rawValue: majorType) ?? .unsignedInteger, argument: argument)
        return writer.takeBytes()
    }
}

extension Result {
    /// The error, if this is a failure.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
