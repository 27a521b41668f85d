import CBOR
import Testing

/// How a decoded `CBORValue` tree is held: scalars and strings inline, only tags boxed.
@Suite("CBORValue layout", .timeLimit(.minutes(5)))
struct ValueLayoutTests {
    @Test("an item is held inline, not in a heap box of its own (an indirect enum is one pointer)")
    func inline() {
        // An inline CBORValue is as large as its largest payload, a String; a boxed one is one pointer.
        #expect(MemoryLayout<CBORValue>.size > MemoryLayout<UnsafeRawPointer>.size)
        #expect(MemoryLayout<CBORValue>.stride <= 24)
    }

    @Test("tags nest (the one boxed case) and large arrays and maps read back equal")
    func nestedAndLarge() throws {
        let tagged = CBORValue.tagged(1, .tagged(2, .tagged(55799, ["a": [1, -2, 3.5, "x", .bytes([0, 255])]])))
        #expect(try CBORValue(decoding: tagged.encoded()) == tagged)
        let array = CBORValue.array((0..<10_000).map { CBORValue(Int64($0) - 5000) })
        #expect(try CBORValue(decoding: array.encoded()) == array)
        let map = CBORValue.map(
            (0..<1000).map {
                CBORValue.MapEntry(key: .text("key \($0)"), value: .bytes([UInt8(truncatingIfNeeded: $0)]))
            })
        #expect(try CBORValue(decoding: map.encoded()) == map)
    }

    @Test("a collection that declares more items than its input holds fails as truncated before reserving room")
    func forgedCount() throws {
        // An array and a map declaring 2^32 - 1 items, then nothing.
        for input: [UInt8] in [[0x9a, 0xff, 0xff, 0xff, 0xff], [0xba, 0xff, 0xff, 0xff, 0xff]] {
            var limits = CBORReader.Limits.default
            limits.maxCollectionCount = Int.max
            let error = #expect(throws: CBORError.self) { try CBORValue(decoding: input, limits: limits) }
            #expect(error?.code == .truncated)
        }
    }
}
