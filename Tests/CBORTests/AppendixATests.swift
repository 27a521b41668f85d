import CBOR
import Testing

/// One example of RFC 8949 Appendix A: its bytes, its value, and the deterministic encoding of
/// that value when it differs from the example (indefinite lengths, non-shortest floats).
struct AppendixExample: Sendable, CustomTestStringConvertible {
    let hex: String
    let value: CBORValue
    let deterministicHex: String?

    init(_ hex: String, _ value: CBORValue, deterministic: String? = nil) {
        self.hex = hex
        self.value = value
        self.deterministicHex = deterministic
    }

    var testDescription: String { hex }
}

let appendixA: [AppendixExample] = [
    .init("00", 0), .init("01", 1), .init("0a", 10), .init("17", 23), .init("1818", 24), .init("1819", 25),
    .init("1864", 100), .init("1903e8", 1000), .init("1a000f4240", 1_000_000),
    .init("1b000000e8d4a51000", 1_000_000_000_000), .init("1bffffffffffffffff", .unsigned(.max)),
    .init("c249010000000000000000", .tagged(2, .bytes([1, 0, 0, 0, 0, 0, 0, 0, 0]))),
    .init("3bffffffffffffffff", .negative(.max)),
    .init("c349010000000000000000", .tagged(3, .bytes([1, 0, 0, 0, 0, 0, 0, 0, 0]))),
    .init("20", -1), .init("29", -10), .init("3863", -100), .init("3903e7", -1000),
    .init("f90000", 0.0), .init("f98000", .float(-0.0)), .init("f93c00", 1.0), .init("fb3ff199999999999a", 1.1),
    .init("f93e00", 1.5), .init("f97bff", 65504.0), .init("fa47c35000", 100000.0),
    .init("fa7f7fffff", 3.4028234663852886e+38), .init("fb7e37e43c8800759c", 1.0e+300),
    .init("f90001", 5.960464477539063e-8), .init("f90400", 0.00006103515625), .init("f9c400", -4.0),
    .init("fbc010666666666666", -4.1), .init("f97c00", .float(.infinity)), .init("f97e00", .float(.nan)),
    .init("f9fc00", .float(-.infinity)), .init("fa7f800000", .float(.infinity), deterministic: "f97c00"),
    .init("fa7fc00000", .float(.nan), deterministic: "f97e00"),
    .init("faff800000", .float(-.infinity), deterministic: "f9fc00"),
    .init("fb7ff0000000000000", .float(.infinity), deterministic: "f97c00"),
    .init("fb7ff8000000000000", .float(.nan), deterministic: "f97e00"),
    .init("fbfff0000000000000", .float(-.infinity), deterministic: "f9fc00"),
    .init("f4", false), .init("f5", true), .init("f6", .null), .init("f7", .undefined), .init("f0", .simple(16)),
    .init("f8ff", .simple(255)),
    .init("c074323031332d30332d32315432303a30343a30305a", .tagged(0, "2013-03-21T20:04:00Z")),
    .init("c11a514b67b0", .tagged(1, 1_363_896_240)), .init("c1fb41d452d9ec200000", .tagged(1, 1_363_896_240.5)),
    .init("d74401020304", .tagged(23, .bytes([1, 2, 3, 4]))),
    .init("d818456449455446", .tagged(24, .bytes([0x64, 0x49, 0x45, 0x54, 0x46]))),
    .init("d82076687474703a2f2f7777772e6578616d706c652e636f6d", .tagged(32, "http://www.example.com")),
    .init("40", .bytes([])), .init("4401020304", .bytes([1, 2, 3, 4])), .init("60", ""), .init("6161", "a"),
    .init("6449455446", "IETF"), .init("62225c", "\"\\"), .init("62c3bc", "\u{00fc}"), .init("63e6b0b4", "\u{6c34}"),
    .init("64f0908591", "\u{10151}"), .init("80", []), .init("83010203", [1, 2, 3]),
    .init("8301820203820405", [1, [2, 3], [4, 5]]),
    .init("98190102030405060708090a0b0c0d0e0f101112131415161718181819", .array((1...25).map { CBORValue($0) })),
    .init("a0", [:]), .init("a201020304", [1: 2, 3: 4]), .init("a26161016162820203", ["a": 1, "b": [2, 3]]),
    .init("826161a161626163", ["a", ["b": "c"]]),
    .init("a56161614161626142616361436164614461656145", ["a": "A", "b": "B", "c": "C", "d": "D", "e": "E"]),
    .init("5f42010243030405ff", .bytes([1, 2, 3, 4, 5]), deterministic: "450102030405"),
    .init("7f657374726561646d696e67ff", "streaming", deterministic: "6973747265616d696e67"),
    .init("9fff", [], deterministic: "80"),
    .init("9f018202039f0405ffff", [1, [2, 3], [4, 5]], deterministic: "8301820203820405"),
    .init("9f01820203820405ff", [1, [2, 3], [4, 5]], deterministic: "8301820203820405"),
    .init("83018202039f0405ff", [1, [2, 3], [4, 5]], deterministic: "8301820203820405"),
    .init("83019f0203ff820405", [1, [2, 3], [4, 5]], deterministic: "8301820203820405"),
    .init(
        "9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff", .array((1...25).map { CBORValue($0) }),
        deterministic: "98190102030405060708090a0b0c0d0e0f101112131415161718181819"),
    .init("bf61610161629f0203ffff", ["a": 1, "b": [2, 3]], deterministic: "a26161016162820203"),
    .init("826161bf61626163ff", ["a", ["b": "c"]], deterministic: "826161a161626163"),
    .init("bf6346756ef563416d7421ff", ["Fun": true, "Amt": -2], deterministic: "a263416d7421634675" + "6ef5"),
]

@Suite("RFC 8949 Appendix A", .timeLimit(.minutes(5)))
struct AppendixATests {
    @Test("decodes to the expected value", arguments: appendixA)
    func decodes(_ example: AppendixExample) throws {
        #expect(try CBORValue(decoding: bytes(example.hex)) == example.value)
    }

    @Test("encodes to the deterministic bytes", arguments: appendixA)
    func encodes(_ example: AppendixExample) throws {
        #expect(hex(try example.value.encoded()) == example.deterministicHex ?? example.hex)
    }

    @Test("deterministic mode accepts exactly the deterministic examples", arguments: appendixA)
    func deterministicMode(_ example: AppendixExample) throws {
        let code = decodingErrorCode(bytes(example.hex), deterministic: true)
        #expect(code == (example.deterministicHex == nil ? nil : .notDeterministic))
        if let deterministicHex = example.deterministicHex {
            #expect(try CBORValue(decoding: bytes(deterministicHex), requireDeterministic: true) == example.value)
        }
    }
}
