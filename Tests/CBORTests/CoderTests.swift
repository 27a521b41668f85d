import CBOR
import Foundation
import Testing

// MARK: - Helpers

/// The coding path of a `DecodingError` as strings (an index as its number) and its case's name.
func describe(_ error: DecodingError) -> (kind: String, path: [String], message: String) {
    func strings(_ path: [any CodingKey]) -> [String] {
        path.map { $0.intValue.map(String.init) ?? $0.stringValue }
    }
    switch error {
    case .typeMismatch(_, let context):
        return ("typeMismatch", strings(context.codingPath), context.debugDescription)
    case .valueNotFound(_, let context):
        return ("valueNotFound", strings(context.codingPath), context.debugDescription)
    case .keyNotFound(let key, let context):
        return ("keyNotFound", strings(context.codingPath + [key]), context.debugDescription)
    case .dataCorrupted(let context):
        return ("dataCorrupted", strings(context.codingPath), context.debugDescription)
    @unknown default:
        return ("unknown", [], "")
    }
}

/// The failure of decoding `input` as `type`, or `nil` if it decodes.
func decodingFailure<T: Decodable>(
    _ type: T.Type, _ input: [UInt8], decoder: CBORDecoder = CBORDecoder()
) -> (kind: String, path: [String], message: String)? {
    do {
        _ = try decoder.decode(type, from: input)
        return nil
    } catch let error as DecodingError {
        return describe(error)
    } catch {
        return ("other: \(error)", [], "")
    }
}

/// Encodes `value`, checks the bytes are deterministic CBOR (the strict reader in deterministic mode accepts
/// them) and equal `expected` when given, decodes them back and checks the copy equals `value`.
func testRoundTrip<T: Codable & Equatable>(
    of value: T, expectedHex expected: String? = nil, encoder: CBOREncoder = CBOREncoder(),
    decoder: CBORDecoder = CBORDecoder(), sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let encoded = try encoder.encodedBytes(value)
    if let expected {
        #expect(hex(encoded) == expected.filter { !$0.isWhitespace }, sourceLocation: sourceLocation)
    }
    #expect(throws: Never.self, sourceLocation: sourceLocation) {
        _ = try CBORValue(decoding: encoded, requireDeterministic: true)
    }
    #expect(Data(encoded) == (try encoder.encode(value)), sourceLocation: sourceLocation)
    let decoded = try decoder.decode(T.self, from: Data(encoded))
    #expect(decoded == value, sourceLocation: sourceLocation)
}

// MARK: - Types

struct Point: Codable, Equatable {
    var x: Int
    var y: Double
}

struct Card: Codable, Equatable {
    enum Suit: String, Codable { case hearts, spades }
    var name: String
    var character: String
    var favorite: String
    var suit: Suit
    var scores: [Int]
    var ratio: Double
    var thumbnail: Data?
    var note: String?
}

enum Shape: Codable, Equatable {
    case circle(radius: Double)
    case rectangle(width: Int, height: Int)
    case empty
}

struct Everything: Codable, Equatable {
    var int8: Int8 = .min
    var int16: Int16 = .min
    var int32: Int32 = .min
    var int64: Int64 = .min
    var int: Int = .max
    var uint8: UInt8 = .max
    var uint16: UInt16 = .max
    var uint32: UInt32 = .max
    var uint64: UInt64 = .max
    var uint: UInt = 23
    var float: Float = 3.25
    var double: Double = -0.0
    var bool = true
    var text = "水\u{10151}"
    var empty = ""
    var nested = Point(x: -1, y: 1e300)
    var points = [Point(x: 1, y: 0.5), Point(x: 2, y: .infinity)]
    var matrix: [[Int]] = [[1, 2], [], [3]]
    var dictionary: [String: Int] = ["b": 2, "a": 1, "aa": 3]
    var intKeys: [Int: String] = [1: "one", -2: "minus two"]
    var shapes: [Shape] = [.circle(radius: 2), .rectangle(width: 3, height: 4), .empty]
    var optionalPresent: Int? = 0
    var optionalAbsent: Int?
    var nestedOptional: [String?] = ["a", nil]
    var url = URL(string: "https://example.com/a?b=c")
    var data = Data([0, 1, 2, 255])
    var date = Date(timeIntervalSince1970: 1_700_000_000.5)
}

/// A class whose subclass encodes its own keys and its superclass's through `super.encode(to:)` and through a super
/// encoder.
class Animal: Codable {
    var legs: Int
    init(legs: Int) { self.legs = legs }
}

final class Dog: Animal, Equatable {
    var name: String
    var shared: Bool

    init(name: String, legs: Int, shared: Bool) {
        self.name = name
        self.shared = shared
        super.init(legs: legs)
    }

    enum CodingKeys: String, CodingKey { case name, parent }

    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        shared = container.contains(.parent)
        if shared {
            try super.init(from: container.superDecoder(forKey: .parent))
        } else {
            super.init(legs: 0)
        }
    }

    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        if shared {
            try super.encode(to: container.superEncoder(forKey: .parent))
        }
    }

    static func == (lhs: Dog, rhs: Dog) -> Bool {
        (lhs.name, lhs.legs, lhs.shared) == (rhs.name, rhs.legs, rhs.shared)
    }
}

/// A list nested as deep as its length.
indirect enum Chain: Codable, Equatable {
    case end
    case link(Chain)

    static func of(depth: Int) -> Chain {
        (0..<depth).reduce(Chain.end) { chain, _ in .link(chain) }
    }
}

// MARK: - Tests

@Suite("Codable coder: encoding", .timeLimit(.minutes(5)))
struct CoderEncodingTests {
    @Test("a struct is a map keyed by its coding keys, in the deterministic encoding")
    func pointBytes() throws {
        try testRoundTrip(of: Point(x: 1, y: 2.5), expectedHex: "a2 6178 01 6179 f94100")
    }

    @Test("keys are sorted by their encoded bytes: shorter first, then bytewise")
    func keyOrder() throws {
        struct Keys: Codable, Equatable {
            var character = 1
            var name = 2
            var favorite = 3
            var b = 4
            var a = 5
        }
        try testRoundTrip(
            of: Keys(),
            expectedHex: "a5 6161 05 6162 04 64" + hex(Array("name".utf8)) + "02 68" + hex(Array("favorite".utf8))
                + "03 69" + hex(Array("character".utf8)) + "01")
    }

    @Test("integers, floats, text, bytes, arrays, nested maps, optionals and enums round-trip")
    func everything() throws {
        try testRoundTrip(of: Everything())
        try testRoundTrip(of: [Everything(), Everything()])
        let card = Card(
            name: "Panther", character: "calm", favorite: "tea", suit: .spades, scores: [1, -2, 300_000],
            ratio: 0.1, thumbnail: Data([1, 2, 3]), note: nil)
        try testRoundTrip(of: card)
    }

    @Test("text of every length, ASCII or not, inline or not, round-trips; invalid UTF-8 of every length is rejected")
    func textLengths() throws {
        // The decoder makes strings of up to 15 bytes in place and longer ones otherwise: both sides of the line.
        for length in 0...40 {
            let ascii = String(repeating: "k", count: length)
            try testRoundTrip(of: ascii)
            try testRoundTrip(of: ["key": ascii])
            // Two-byte characters and a four-byte one, whole.
            let mixed = String(String(repeating: "é", count: length).prefix(max(0, length - 1))) + "🙂"
            try testRoundTrip(of: mixed)
            guard length > 0, length < 24 else { continue }
            // A lone continuation byte at the end of otherwise ASCII text.
            let invalid = [UInt8(0x60 + length)] + Array(repeating: UInt8(ascii: "k"), count: length - 1) + [0x80]
            let failure = try #require(decodingFailure(String.self, invalid), "length \(length)")
            #expect(failure.kind == "dataCorrupted")
            #expect(failure.message.contains("not valid UTF-8"))
        }
    }

    @Test("values of growing and shrinking sizes encode one after another with one encoder")
    func encodingsInTurn() throws {
        struct Sized: Codable, Equatable {
            var numbers: [Int]
            var labels: [String]
        }
        let encoder = CBOREncoder()
        let decoder = CBORDecoder()
        // Small and large encodings take turns: each starts with the room the one before ended with, or not.
        for size in [1, 40, 3_000, 2, 70_000, 5, 600, 600, 1] {
            let value = Sized(numbers: Array(0..<size), labels: (0..<min(size, 50)).map { "label \($0)" })
            let data = try encoder.encode(value)
            #expect(try decoder.decode(Sized.self, from: data) == value)
            #expect(data == (try CBOREncoder().encode(value)))
        }
    }

    @Test(
        "each number takes its shortest form",
        arguments: [
            (0.0, "f90000"), (-0.0, "f98000"), (1.5, "f93e00"), (65504.0, "f97bff"), (100_000.0, "fa47c35000"),
            (1.1, "fb3ff199999999999a"), (Double.infinity, "f97c00"), (Double.nan, "f97e00"),
        ])
    func floats(value: Double, expected: String) throws {
        #expect(hex(try CBOREncoder().encodedBytes(value)) == expected)
    }

    @Test("integers take their shortest heads")
    func integers() throws {
        let encoder = CBOREncoder()
        #expect(hex(try encoder.encodedBytes(23)) == "17")
        #expect(hex(try encoder.encodedBytes(24)) == "1818")
        #expect(hex(try encoder.encodedBytes(-1)) == "20")
        #expect(hex(try encoder.encodedBytes(Int64.min)) == "3b7fffffffffffffff")
        #expect(hex(try encoder.encodedBytes(UInt64.max)) == "1bffffffffffffffff")
        #expect(hex(try encoder.encodedBytes(Array(repeating: true, count: 24))).hasPrefix("9818f5"))
    }

    @Test("a map of 24 or more entries gets a longer head, keys still sorted")
    func largeMap() throws {
        let dictionary = Dictionary(uniqueKeysWithValues: (0..<300).map { ("key \($0)", $0) })
        try testRoundTrip(of: dictionary)
        #expect(hex(try CBOREncoder().encodedBytes(dictionary)).hasPrefix("b9012c"))
    }

    @Test("a subclass with a super encoder, and an enum with associated values, use nested containers")
    func nestedContainers() throws {
        try testRoundTrip(of: Dog(name: "Rex", legs: 4, shared: true))
        try testRoundTrip(of: Dog(name: "Rex", legs: 0, shared: false))
        let bytes = try CBOREncoder().encodedBytes(Dog(name: "Rex", legs: 4, shared: true))
        #expect(try CBORValue(decoding: bytes) == ["name": "Rex", "parent": ["legs": 4]])
        let shape = try CBORValue(decoding: try CBOREncoder().encodedBytes(Shape.rectangle(width: 3, height: 4)))
        #expect(shape == ["rectangle": ["width": 3, "height": 4]])
    }

    @Test("date strategies")
    func dates() throws {
        let date = Date(timeIntervalSince1970: 1.5)
        let cases: [(CBOREncoder.DateEncodingStrategy, CBORDecoder.DateDecodingStrategy, String)] = [
            (.secondsSince1970, .secondsSince1970, "f93e00"),
            (.millisecondsSince1970, .millisecondsSince1970, "1905dc"),
            (.taggedEpochSeconds, .taggedEpochSeconds, "c1f93e00"),
            (.deferredToDate, .deferredToDate, "fbc1cd27e43f400000"),
        ]
        for (encoding, decoding, expected) in cases {
            var encoder = CBOREncoder()
            encoder.dateEncodingStrategy = encoding
            var decoder = CBORDecoder()
            decoder.dateDecodingStrategy = decoding
            try testRoundTrip(of: date, expectedHex: expected, encoder: encoder, decoder: decoder)
        }
        var encoder = CBOREncoder()
        encoder.dateEncodingStrategy = .iso8601
        var decoder = CBORDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let whole = Date(timeIntervalSince1970: 1_700_000_000)
        try testRoundTrip(
            of: whole, expectedHex: "74" + hex(Array("2023-11-14T22:13:20Z".utf8)), encoder: encoder, decoder: decoder)
        encoder.dateEncodingStrategy = .taggedEpochSeconds
        #expect(hex(try encoder.encodedBytes(whole)) == "c11a6553f100")
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode("day \(Int(date.timeIntervalSince1970 / 86_400))")
        }
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            return Date(timeIntervalSince1970: Double(text.dropFirst(4)).map { $0 * 86_400 } ?? 0)
        }
        try testRoundTrip(of: [Date(timeIntervalSince1970: 86_400)], encoder: encoder, decoder: decoder)
    }

    @Test("data strategies")
    func data() throws {
        let data = Data([0xde, 0xad])
        try testRoundTrip(of: data, expectedHex: "42dead")
        var encoder = CBOREncoder()
        var decoder = CBORDecoder()
        encoder.dataEncodingStrategy = .base64
        decoder.dataDecodingStrategy = .base64
        try testRoundTrip(of: data, expectedHex: "64" + hex(Array("3q0=".utf8)), encoder: encoder, decoder: decoder)
        encoder.dataEncodingStrategy = .deferredToData
        decoder.dataDecodingStrategy = .deferredToData
        try testRoundTrip(of: data, expectedHex: "8218de18ad", encoder: encoder, decoder: decoder)
        encoder.dataEncodingStrategy = .custom { data, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(data.count)
        }
        decoder.dataDecodingStrategy = .custom { decoder in
            Data(count: try decoder.singleValueContainer().decode(Int.self))
        }
        try testRoundTrip(of: Data(count: 3), expectedHex: "03", encoder: encoder, decoder: decoder)
    }

    @Test("key strategies: snake case both ways, and custom")
    func keys() throws {
        struct Settings: Codable, Equatable {
            var myURLProperty = 1
            var volumeLevel = 2
        }
        var encoder = CBOREncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        var decoder = CBORDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let bytes = try encoder.encodedBytes(Settings())
        #expect(try CBORValue(decoding: bytes) == ["my_url_property": 1, "volume_level": 2])
        // As with JSONDecoder, `my_url_property` converts to `myUrlProperty`, which the synthesized keys do not match.
        #expect(decodingFailure(Settings.self, bytes, decoder: decoder)?.kind == "keyNotFound")
        struct Plain: Codable, Equatable { var volumeLevel = 2 }
        try testRoundTrip(of: Plain(), encoder: encoder, decoder: decoder)

        encoder.keyEncodingStrategy = .custom { path in
            CustomKey(stringValue: path.last.map { $0.stringValue.uppercased() } ?? "")
        }
        decoder.keyDecodingStrategy = .custom { path in
            CustomKey(stringValue: path.last.map { $0.stringValue.lowercased() } ?? "")
        }
        // Keys convert as JSONEncoder converts them, titlecase and other non-ASCII letters included (a fuzzer
        // finding: `ᒘɡɚ` once made the conversion build an inverted range and trap).
        struct Odd: Codable {
            var URLValue = 1
            var myURLProperty = 2
            var aǅB = 3
            var ǅemo = 4
            var sᒘɡɚSs = 5
        }
        let json = JSONEncoder()
        json.keyEncodingStrategy = .convertToSnakeCase
        var snake = CBOREncoder()
        snake.keyEncodingStrategy = .convertToSnakeCase
        let jsonKeys = try JSONDecoder().decode([String: Int].self, from: json.encode(Odd()))
        let cborKeys = try CBORDecoder().decode([String: Int].self, from: snake.encode(Odd()))
        #expect(cborKeys == jsonKeys)
        #expect(cborKeys["my_url_property"] == 2)
        // Two keys that convert to one cannot both be written (JSONEncoder keeps the last; a CBOR map cannot).
        let collision = #expect(throws: EncodingError.self) { try snake.encode(["Ccc": 1, "ccc": 2]) }
        if case .invalidValue(_, let context) = collision {
            #expect(context.debugDescription.contains("\"ccc\" twice"))
        }
        struct Lower: Codable, Equatable { var volume = 2 }
        try testRoundTrip(of: Lower(), expectedHex: "a1 66564f4c554d45 02", encoder: encoder, decoder: decoder)
    }

    @Test("userInfo reaches encode(to:) and init(from:)")
    func userInfo() throws {
        let key = try #require(CodingUserInfoKey(rawValue: "scale"))
        struct Scaled: Codable, Equatable {
            var value: Int
            init(value: Int) { self.value = value }
            init(from decoder: any Decoder) throws {
                value = try decoder.singleValueContainer().decode(Int.self) / (decoder.userInfo[Self.key] as? Int ?? 1)
            }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(value * (encoder.userInfo[Self.key] as? Int ?? 1))
            }
            static let key = CodingUserInfoKey(rawValue: "scale")!
        }
        var encoder = CBOREncoder()
        encoder.userInfo[key] = 10
        var decoder = CBORDecoder()
        decoder.userInfo[key] = 10
        try testRoundTrip(of: Scaled(value: 3), expectedHex: "181e", encoder: encoder, decoder: decoder)
    }

    @Test("a map key written twice is an EncodingError with the coding path")
    func duplicateKeyOnEncode() throws {
        struct Twice: Encodable {
            enum CodingKeys: String, CodingKey { case a }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(1, forKey: .a)
                try container.encode(2, forKey: .a)
            }
        }
        struct Outer: Encodable { var inner = Twice() }
        let error = #expect(throws: EncodingError.self) { try CBOREncoder().encode(Outer()) }
        guard case .invalidValue(_, let context) = error else {
            Issue.record("expected invalidValue, got \(String(describing: error))")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["inner"])
        #expect(context.debugDescription.contains("\"a\" twice"))
    }

    @Test("a value that asks for a single-value container and encodes nothing is an EncodingError")
    func emptySingleValue() throws {
        struct Nothing: Encodable {
            func encode(to encoder: any Encoder) throws { _ = encoder.singleValueContainer() }
        }
        #expect(throws: EncodingError.self) { try CBOREncoder().encode([Nothing()]) }
    }

    @Test("asking one encoder for two kinds of container is an EncodingError")
    func twoKindsOfContainer() throws {
        struct Confused: Encodable {
            enum CodingKeys: String, CodingKey { case a }
            func encode(to encoder: any Encoder) throws {
                var keyed = encoder.container(keyedBy: CodingKeys.self)
                try keyed.encode(1, forKey: .a)
                var unkeyed = encoder.unkeyedContainer()
                try unkeyed.encode(2)
            }
        }
        #expect(throws: EncodingError.self) { try CBOREncoder().encode(Confused()) }
    }

    @Test("a value whose encode(to:) throws leaves no trace when the caller catches the error")
    func failedValueIsRolledBack() throws {
        struct Failing: Encodable {
            struct Failure: Error {}
            func encode(to encoder: any Encoder) throws {
                var container = encoder.unkeyedContainer()
                try container.encode(1)
                throw Failure()
            }
        }
        struct Tolerant: Encodable {
            enum CodingKeys: String, CodingKey { case a, b }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try? container.encode(Failing(), forKey: .a)
                try container.encode(2, forKey: .b)
            }
        }
        #expect(try CBORValue(decoding: try CBOREncoder().encodedBytes(Tolerant())) == ["b": 2])
    }
}

@Suite("Codable coder: strict decoding", .timeLimit(.minutes(5)))
struct CoderDecodingTests {
    struct Inventory: Codable, Equatable {
        struct Item: Codable, Equatable {
            var name: String
            var count: UInt8
        }
        var items: [Item]
    }

    @Test("reads what another CBOR encoder writes: any key order, non-shortest heads and floats")
    func lenientForms() throws {
        // {"y": 2.5 as a double, "x": 1 with a one-byte argument}
        let input = bytes("a2 6179 fb4004000000000000 6178 1801")
        #expect(try CBORDecoder().decode(Point.self, from: input) == Point(x: 1, y: 2.5))
        // An integer for a Double.
        #expect(try CBORDecoder().decode(Point.self, from: bytes("a2 6178 01 6179 03")) == Point(x: 1, y: 3))
    }

    @Test("a wrong type names the coding path")
    func typeMismatch() throws {
        let value: CBORValue = ["items": [["name": "a", "count": 1], ["name": "b", "count": "many"]]]
        let input = try value.encoded()
        let failure = try #require(decodingFailure(Inventory.self, input))
        #expect(failure.kind == "typeMismatch")
        #expect(failure.path == ["items", "1", "count"])
        #expect(failure.message.contains("expected an integer but found a text string"))
    }

    @Test("null for a value that is not optional is valueNotFound; a missing key is keyNotFound")
    func missingValues() throws {
        let null = try #require(decodingFailure(Point.self, bytes("a2 6178 f6 6179 01")))
        #expect(null.kind == "valueNotFound")
        #expect(null.path == ["x"])
        let missing = try #require(decodingFailure(Point.self, bytes("a1 6178 01")))
        #expect(missing.kind == "keyNotFound")
        #expect(missing.path == ["y"])
        #expect(try CBORDecoder().decode([Int].self, from: bytes("80")) == [])
        #expect(decodingFailure(Point.self, bytes("80"))?.kind == "typeMismatch")
    }

    @Test("an integer that does not fit the type is dataCorrupted with the path")
    func integerRange() throws {
        let failure = try #require(
            decodingFailure(Inventory.self, bytes("a1 656974656d73 81 a2 646e616d65 6161 65636f756e74 190100")))
        #expect(failure.kind == "dataCorrupted")
        #expect(failure.path == ["items", "0", "count"])
        #expect(failure.message.contains("does not fit in UInt8"))
        #expect(decodingFailure(UInt.self, bytes("20"))?.kind == "dataCorrupted")
        #expect(decodingFailure(Int64.self, bytes("3b8000000000000000"))?.kind == "dataCorrupted")
        #expect(try CBORDecoder().decode(Int64.self, from: bytes("3b7fffffffffffffff")) == .min)
        #expect(decodingFailure(Int.self, bytes("f93e00"))?.kind == "typeMismatch")
        #expect(decodingFailure(Float.self, bytes("fb7fefffffffffffff"))?.kind == "dataCorrupted")
    }

    @Test("every truncation of an encoded value is dataCorrupted")
    func truncated() throws {
        let encoded = try CBOREncoder().encodedBytes(Everything())
        for length in 0..<encoded.count {
            let failure = decodingFailure(Everything.self, Array(encoded[..<length]))
            #expect(failure?.kind == "dataCorrupted", "prefix of \(length) bytes: \(String(describing: failure))")
        }
    }

    @Test("bytes after the data item are rejected")
    func trailingBytes() throws {
        var encoded = try CBOREncoder().encodedBytes(Point(x: 1, y: 2))
        encoded.append(0x00)
        let failure = try #require(decodingFailure(Point.self, encoded))
        #expect(failure.kind == "dataCorrupted")
        #expect(failure.message.contains("1 bytes follow the data item"))
        #expect(decodingFailure(Int.self, bytes("01 01"))?.kind == "dataCorrupted")
        #expect(decodingFailure([Int].self, bytes("81 01 02"))?.kind == "dataCorrupted")
    }

    @Test("a map with a key twice is rejected, sorted or not, small or large")
    func duplicateKeys() throws {
        let failure = try #require(decodingFailure(Point.self, bytes("a3 6178 01 6179 02 6178 03")))
        #expect(failure.kind == "dataCorrupted")
        #expect(failure.message.contains("the key \"x\" twice"))
        var large: [UInt8] = [0xb8, 40]
        for index in 0..<40 {
            large += [0x62, 0x6b, UInt8(0x30 + index % 39)] + [0x01]
        }
        #expect(decodingFailure([String: Int].self, large)?.kind == "dataCorrupted")
        var unique: [UInt8] = [0xb8, 40]
        for index in (0..<40).reversed() {
            unique += [0x62, 0x6b, UInt8(0x30 + index)] + [UInt8(index % 24)]
        }
        let dictionary = try CBORDecoder().decode([String: Int].self, from: unique)
        #expect(dictionary.count == 40)
        #expect(dictionary["k0"] == 0 && dictionary["kW"] == 39 % 24)
    }

    @Test("a map key that is not a text string is rejected")
    func nonTextKey() throws {
        let failure = try #require(decodingFailure(Point.self, bytes("a2 01 01 6179 02")))
        #expect(failure.kind == "dataCorrupted")
        #expect(failure.message.contains("keys must be text strings"))
    }

    @Test("nesting deeper than the limit is rejected with the path; the limit is configurable")
    func depth() throws {
        let deep = try CBOREncoder().encodedBytes(Chain.of(depth: 100))
        let failure = try #require(decodingFailure(Chain.self, deep))
        #expect(failure.kind == "dataCorrupted")
        #expect(failure.message.contains("nested more than 64 levels"))
        #expect(failure.path.count == 128)  // 64 levels of `link` and `_0`
        #expect(failure.path.suffix(2) == ["link", "_0"])
        var decoder = CBORDecoder()
        decoder.limits.maxNestingDepth = 128
        #expect(try decoder.decode(Chain.self, from: deep) == Chain.of(depth: 100))
    }

    @Test("strings and collections longer than the limits are rejected before anything is allocated")
    func lengths() throws {
        var decoder = CBORDecoder()
        decoder.limits.maxStringLength = 4
        decoder.limits.maxCollectionCount = 2
        #expect(decodingFailure(String.self, bytes("6461626364"), decoder: decoder) == nil)
        let string = try #require(decodingFailure(String.self, bytes("656162636465"), decoder: decoder))
        #expect(string.kind == "dataCorrupted" && string.message.contains("longer than the limit of 4"))
        let array = try #require(decodingFailure([Int].self, bytes("83010203"), decoder: decoder))
        #expect(array.kind == "dataCorrupted" && array.message.contains("larger than the limit of 2"))
        // Lengths the input cannot hold fail as truncated, whatever the limits.
        let huge = try #require(decodingFailure(Data.self, bytes("5b 7fffffffffffffff 00")))
        #expect(huge.kind == "dataCorrupted")
        #expect(decodingFailure([Int].self, bytes("9b 7fffffffffffffff 00"))?.kind == "dataCorrupted")
        #expect(decodingFailure(Point.self, bytes("bb 00000000ffffffff 00"))?.kind == "dataCorrupted")
        // Limits as large as they go: the declared sizes still fail against the bytes left, without overflow.
        var unlimited = CBORDecoder()
        unlimited.limits = CBORReader.Limits(maxNestingDepth: 64, maxCollectionCount: .max, maxStringLength: .max)
        #expect(
            decodingFailure(Point.self, bytes("bb 7fffffffffffffff 00"), decoder: unlimited)?.kind == "dataCorrupted")
        #expect(
            decodingFailure([Int].self, bytes("9b 7fffffffffffffff 00"), decoder: unlimited)?.kind == "dataCorrupted")
        #expect(
            decodingFailure(String.self, bytes("7b 7fffffffffffffff 00"), decoder: unlimited)?.kind == "dataCorrupted")
    }

    @Test(
        "malformed items are rejected",
        arguments: [
            ("indefinite-length array", "9f01ff"), ("indefinite-length text", "7f6161ff"), ("break", "ff"),
            ("reserved additional information", "1c"), ("two-byte simple value below 32", "f801"),
            ("invalid UTF-8", "62c328"), ("empty input", ""),
        ])
    func malformed(name: String, input: String) throws {
        let failure = try #require(decodingFailure(String.self, bytes(input)), "\(name)")
        #expect(failure.kind == "dataCorrupted", "\(name): \(failure)")
    }

    @Test("a malformed value of a key the type ignores still fails the decode")
    func malformedIgnoredValue() throws {
        #expect(decodingFailure(Point.self, bytes("a3 6178 01 6179 02 617a 9f")) != nil)
        #expect(
            decodingFailure(Point.self, bytes("a3 6178 01 6179 02 617a 5b7fffffffffffffff"))?.kind == "dataCorrupted")
    }

    @Test("a date strategy that expects tag 1 rejects another item")
    func taggedDate() throws {
        var decoder = CBORDecoder()
        decoder.dateDecodingStrategy = .taggedEpochSeconds
        #expect(decodingFailure(Date.self, bytes("c0 00"), decoder: decoder)?.kind == "typeMismatch")
        decoder.dateDecodingStrategy = .iso8601
        #expect(decodingFailure(Date.self, bytes("6161"), decoder: decoder)?.kind == "dataCorrupted")
        decoder.dataDecodingStrategy = .base64
        #expect(decodingFailure(Data.self, bytes("6121"), decoder: decoder)?.kind == "dataCorrupted")
        #expect(decodingFailure(URL.self, bytes("60"))?.kind == "dataCorrupted")
    }
}

struct CustomKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
