import CBOR
import Testing

let shortestFloatCases: [(Double, String)] = [
    (0.0, "f90000"), (-0.0, "f98000"), (1.0, "f93c00"), (1.5, "f93e00"), (65504.0, "f97bff"),
    (65505.0, "fa477fe100"), (100000.0, "fa47c35000"), (1.1, "fb3ff199999999999a"),
    (5.960464477539063e-8, "f90001"), (3 * 5.960464477539063e-8, "f90003"), (0x1p-15, "f90200"),
    (0x1p-14, "f90400"), (0x1p-25, "fa33000000"), (Double(Float.greatestFiniteMagnitude), "fa7f7fffff"),
    (Double(Float.leastNonzeroMagnitude), "fa00000001"), (Double.leastNonzeroMagnitude, "fb0000000000000001"),
    (Double(Float(1.0 / 3.0)), "fa3eaaaaab"), (1.0 / 3.0, "fb3fd5555555555555"), (.infinity, "f97c00"),
    (-.infinity, "f9fc00"), (.nan, "f97e00"), (-.nan, "f97e00"), (.signalingNaN, "f97e00"),
    (Double(bitPattern: 0x7ff0_0000_0000_0001), "f97e00"), (1.0e300, "fb7e37e43c8800759c"),
    (-4.1, "fbc010666666666666"), (65536.0, "fa47800000"), (-0x1p-24, "f98001"),
]

let shortestHeadCases: [(UInt64, String)] = [
    (0, "00"), (23, "17"), (24, "1818"), (255, "18ff"), (256, "190100"), (65535, "19ffff"),
    (65536, "1a00010000"), (0xffff_ffff, "1affffffff"), (0x1_0000_0000, "1b0000000100000000"),
    (.max, "1bffffffffffffffff"),
]

@Suite("Deterministic encoding (RFC 8949 §4.2.1)", .timeLimit(.minutes(5)))
struct DeterministicEncodingTests {
    @Test("map keys are sorted by the bytes of their encodings")
    func mapKeyOrder() throws {
        let map: CBORValue = ["b": 1, "a": 2, 10: 3, -1: 4, "aa": 5, [0]: 6, 100: 7, false: 8]
        #expect(
            hex(try map.encoded()) == "a8" + "0a03" + "186407" + "2004" + "616102" + "616201" + "62616105" + "810006"
                + "f408")
    }

    @Test("nested maps are sorted too, and reading keeps the order of the input")
    func nestedAndReadOrder() throws {
        let value: CBORValue = ["z": ["y": 1, "x": 2], "a": 0]
        let encoded = try value.encoded()
        #expect(hex(encoded) == "a2616100617aa2617802617901")
        let read = try CBORValue(decoding: bytes("a2617a00616101"))
        #expect(read.mapEntries?.map(\.key) == ["z", "a"])
    }

    @Test("floats take the shortest exact form", arguments: shortestFloatCases)
    func shortestFloats(_ value: Double, _ expected: String) throws {
        #expect(hex(try CBORValue.float(value).encoded()) == expected)
    }

    @Test("every half-precision pattern decodes and encodes back to itself (NaNs to f97e00)")
    func everyHalf() throws {
        for pattern in 0...UInt16.max {
            let input: [UInt8] = [0xf9, UInt8(pattern >> 8), UInt8(pattern & 0xff)]
            let value = try CBORValue(decoding: input)
            let isNaN = pattern & 0x7c00 == 0x7c00 && pattern & 0x3ff != 0
            #expect(try value.encoded() == (isNaN ? [0xf9, 0x7e, 0x00] : input), "\(pattern)")
        }
    }

    @Test("single-precision patterns keep their value and shorten only when exact")
    func singles() throws {
        for pattern in stride(from: UInt32(0), to: UInt32.max - 65521, by: 65521) {
            let input: [UInt8] = [
                0xfa, UInt8(pattern >> 24), UInt8((pattern >> 16) & 0xff), UInt8((pattern >> 8) & 0xff),
                UInt8(pattern & 0xff),
            ]
            let value = try CBORValue(decoding: input)
            let encoded = try value.encoded()
            #expect(try CBORValue(decoding: encoded) == value)
            if encoded.count == 5 {
                #expect(encoded == input || value.doubleValue?.isNaN == true)
            }
        }
    }

    @Test("integer heads use the shortest argument", arguments: shortestHeadCases)
    func shortestHeads(_ argument: UInt64, _ expected: String) throws {
        #expect(hex(try CBORValue.unsigned(argument).encoded()) == expected)
        #expect(try CBORValue(decoding: bytes(expected), requireDeterministic: true) == .unsigned(argument))
    }

    @Test(
        "deterministic mode rejects what is not deterministic",
        arguments: [
            "1817", "190017", "1a0000ffff", "1b00000000ffffffff", "3817", "5800", "780161", "9800", "b800", "d81701",
            "fa3f800000", "fb3ff0000000000000", "fb3ff8000000000000", "f97e01", "f9fe00", "fa7fc00000",
            "a2020001 00", "a2616200616100", "a2616100 0100", "9fff", "5fff", "7fff", "bfff", "8 1 9f ff",
        ])
    func rejectsNonDeterministic(_ example: String) {
        #expect(decodingErrorCode(bytes(example), deterministic: true) == .notDeterministic, "\(example)")
    }

    @Test("a map with equal keys cannot be written")
    func duplicateKeysOnWrite() {
        let error = #expect(throws: CBORError.self) {
            try CBORValue.map([.init(key: 1, value: 2), .init(key: 1, value: 3)]).encoded()
        }
        #expect(error?.code == .duplicateMapKey)
    }

    @Test("simple values 20...31 cannot be written as .simple", arguments: Array(UInt8(20)...31))
    func invalidSimpleOnWrite(_ simple: UInt8) {
        let error = #expect(throws: CBORError.self) { try CBORValue.simple(simple).encoded() }
        #expect(error?.code == .invalidSimpleValue)
    }
}
